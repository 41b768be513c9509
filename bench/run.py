#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Benchmark harness: uet against the software peers on this machine.

Runs, interleaved (every case for every provider, then again, RUNS
times), on loopback:
  - fi_pingpong -e rdm: 64 B latency and 1 MiB bandwidth (and with
    --sweep every size from 64 B to 1 MiB for the plot);
  - with FABTESTS_DIR: fi_rdm_tagged_bw 64 B message rate and
    fi_rma_bw -o write and -o read 1 MiB bandwidth;
  - uet only: the 1 MiB cases again with 1% of the received datagrams
    dropped (FI_UET_LOSS_PPM=10000, uet's testing knob), printed with
    their ratio to the lossless uet median;
  - bench/uet_udp_limit: raw UDP ping-pong and GSO+GRO stream, the limit,
    and for 64 B a second reference (udp-uet-calls): the ping-pong made
    with the software NIC's own system calls and its 120-byte datagram;
  - with Open MPI (mpicc, mpirun) and --mpi: bench/uet_mpi_bench.c
    (8 B ping-pong, MPI_Allreduce of 8 B, 1 KiB and 1 MiB) over the OFI
    MTL per provider.
Prints medians, min-max and the ratios uet/peer and uet/limit, writes
results.csv (every run) and summary.json to the output directory, and
with --plot draws latency.png and bandwidth.png with gnuplot.

bench/run.sh is the documented entry point (it builds what is needed).
"""
import argparse
import csv
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = ["udp;ofi_rxd", "tcp", "shm"]
TIMEOUT = 120
# Loss cases: uet only (FI_UET_LOSS_PPM is uet's), each compared with the
# lossless case it repeats.
LOSS_PPM = 10000
LOSS_CASES = {"pp_bw_1m_loss1": "pp_bw_1m",
              "rma_write_1m_loss1": "rma_write_1m",
              "rma_read_1m_loss1": "rma_read_1m"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def provider_env(prov, args, extra=None):
    env = dict(os.environ)
    env["FI_UET_IFACE"] = "lo"
    env["FI_TCP_IFACE"] = "lo"
    env["FI_UDP_IFACE"] = "lo"
    if prov == "uet" and args.prov_path:
        env["FI_PROVIDER_PATH"] = args.prov_path
    env.update(extra or {})
    return env


def run_pair(server, client, env):
    """Start server, then client; return the client's stdout or None."""
    srv = subprocess.Popen(server, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    time.sleep(0.4)
    try:
        out = subprocess.run(client, env=env, capture_output=True,
                             text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        srv.kill()
        srv.wait()
        return None
    try:
        srv.wait(timeout=10)
    except subprocess.TimeoutExpired:
        srv.kill()
        srv.wait()
    return out.stdout if out.returncode == 0 else None


def parse_size(text):
    """fabtests print sizes as 64, 1k, 1m (powers of 1024)."""
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    try:
        if text[-1:].lower() in mult:
            return int(float(text[:-1]) * mult[text[-1:].lower()])
        return int(text)
    except ValueError:
        return None


def parse_table(out, size, col):
    """The value of column col in the row of size in a fabtests table."""
    if not out:
        return None
    head = None
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "bytes":
            head = f
        elif head and f and parse_size(f[0]) == size and col in head:
            i = head.index(col)
            if i < len(f):
                return float(f[i])
    return None


def fi_pingpong(prov, size, iters, args, env=None):
    port = free_port()
    base = ["fi_pingpong", "-p", prov, "-e", "rdm", "-S", str(size),
            "-I", str(iters)]
    out = run_pair(base + ["-B", str(port)],
                   base + ["-P", str(port), "127.0.0.1"],
                   provider_env(prov, args, env))
    return out


def case_pp_lat(prov, args, size=64):
    out = fi_pingpong(prov, size, args.iters_lat, args)
    return parse_table(out, size, "usec/xfer")


def case_pp_bw(prov, args, size=1 << 20, env=None):
    iters = max(20, min(args.iters_lat, (256 << 20) // max(size, 1)))
    out = fi_pingpong(prov, size, iters, args, env)
    v = parse_table(out, size, "MB/sec")
    return v / 1000.0 if v is not None else None     # GB/s


def fabtest(prov, prog, extra, size, col, args, env=None):
    exe = os.path.join(args.fabtests, "bin", prog)
    port = free_port()
    base = [exe, "-p", prov, "-e", "rdm", "-s", "127.0.0.1", "-S",
            str(size)] + extra
    out = run_pair(base + ["-B", str(port)],
                   base + ["-P", str(port), "127.0.0.1"],
                   provider_env(prov, args, env))
    return parse_table(out, size, col)


def case_tagged_rate(prov, args):
    return fabtest(prov, "fi_rdm_tagged_bw", ["-I", "20000"], 64,
                   "Mxfers/sec", args)


def case_rma_write(prov, args, env=None):
    v = fabtest(prov, "fi_rma_bw", ["-o", "write", "-I", "200"], 1 << 20,
                "MB/sec", args, env)
    return v / 1000.0 if v is not None else None


def case_rma_read(prov, args, env=None):
    v = fabtest(prov, "fi_rma_bw", ["-o", "read", "-I", "200"], 1 << 20,
                "MB/sec", args, env)
    return v / 1000.0 if v is not None else None


def loss_env():
    return {"FI_UET_LOSS_PPM": str(LOSS_PPM)}


def udp_limit(mode, size, n, args):
    out = subprocess.run([args.udp_limit, mode, str(size), str(n)],
                         capture_output=True, text=True, timeout=TIMEOUT)
    if out.returncode:
        return None
    return float(out.stdout.split()[2])


def mpi_case(prov, what, args, size=None):
    env = provider_env(prov, args)
    env.update({"OMPI_MCA_pml": "cm", "OMPI_MCA_mtl": "ofi",
                "OMPI_MCA_mtl_ofi_provider_include": prov,
                "OMPI_MCA_btl": "self"})
    cmd = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2",
           args.mpi_bench, what] + ([str(size)] if size else [])
    try:
        out = subprocess.run(cmd, env=env, capture_output=True, text=True,
                             timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) >= 2 and f[0] == what:
            return float(f[1])
    return None


def build_cases(args):
    """(id, title, unit, higher_is_better, fn(prov) or None, limit fn or
    {reference name: fn})"""
    cases = [
        ("pp_lat_64", "fi_pingpong rdm 64 B latency", "usec", False,
         case_pp_lat, {
             "udp-limit": lambda: udp_limit("pingpong", 64, 20000, args),
             # uet's own system calls with its 120-byte datagram
             "udp-uet-calls": lambda: udp_limit("pingpong-uet", 120,
                                                20000, args)}),
        ("pp_bw_1m", "fi_pingpong rdm 1 MiB bandwidth", "GB/s", True,
         case_pp_bw, lambda: udp_limit("gso", 16384, 2 << 30, args)),
        ("pp_bw_1m_loss1", "fi_pingpong rdm 1 MiB bandwidth, 1% loss",
         "GB/s", True,
         lambda p, a: case_pp_bw(p, a, env=loss_env()), None),
    ]
    if args.fabtests:
        cases += [
            ("tagged_rate_64", "fi_rdm_tagged_bw 64 B message rate",
             "Mmsg/s", True, case_tagged_rate, None),
            ("rma_write_1m", "fi_rma_bw -o write 1 MiB bandwidth", "GB/s",
             True, case_rma_write, None),
            ("rma_read_1m", "fi_rma_bw -o read 1 MiB bandwidth", "GB/s",
             True, case_rma_read, None),
            ("rma_write_1m_loss1",
             "fi_rma_bw -o write 1 MiB bandwidth, 1% loss", "GB/s", True,
             lambda p, a: case_rma_write(p, a, env=loss_env()), None),
            ("rma_read_1m_loss1",
             "fi_rma_bw -o read 1 MiB bandwidth, 1% loss", "GB/s", True,
             lambda p, a: case_rma_read(p, a, env=loss_env()), None),
        ]
    if args.mpi_bench:
        cases += [
            ("mpi_pingpong_8", "MPI ping-pong 8 B (half round trip)",
             "usec", False, lambda p, a: mpi_case(p, "pingpong", a, 8),
             None),
            ("mpi_allreduce_8", "MPI_Allreduce 8 B, 2 ranks", "usec",
             False, lambda p, a: mpi_case(p, "allreduce", a, 8), None),
            ("mpi_allreduce_1k", "MPI_Allreduce 1 KiB, 2 ranks", "usec",
             False, lambda p, a: mpi_case(p, "allreduce", a, 1024), None),
            ("mpi_allreduce_1m", "MPI_Allreduce 1 MiB, 2 ranks", "usec",
             False, lambda p, a: mpi_case(p, "allreduce", a, 1 << 20),
             None),
        ]
    if args.sweep:
        for size in (64, 1024, 16384, 262144, 1 << 20):
            cases.append(("sweep_lat_%d" % size, "latency %d B" % size,
                          "usec", False,
                          lambda p, a, s=size: case_pp_lat(p, a, s), None))
            cases.append(("sweep_bw_%d" % size, "bandwidth %d B" % size,
                          "GB/s", True,
                          lambda p, a, s=size: case_pp_bw(p, a, s), None))
    if args.medium:
        # issue 34: no size between 4 KiB and 64 KiB slower than tcp
        for size in (4096, 8192, 12288, 16384, 24576, 32768, 49152, 65536):
            cases.append(("med_lat_%d" % size, "latency %d B" % size,
                          "usec", False,
                          lambda p, a, s=size: case_pp_lat(p, a, s), None))
    return cases


def limits_of(limit):
    """A case's raw-UDP references: {name: fn}."""
    if not limit:
        return {}
    return limit if isinstance(limit, dict) else {"udp-limit": limit}


def available(prov, args):
    r = subprocess.run(["fi_info", "-p", prov], env=provider_env(prov, args),
                       capture_output=True, text=True, timeout=30)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--runs", type=int, default=5)
    ap.add_argument("-o", "--out", default=None)
    ap.add_argument("--prov-path", default=None,
                    help="FI_PROVIDER_PATH for uet (the build's .libs)")
    ap.add_argument("--udp-limit", required=True)
    ap.add_argument("--mpi-bench", default=None)
    ap.add_argument("--fabtests", default=os.environ.get("FABTESTS_DIR"))
    ap.add_argument("--providers", default=",".join(PEERS))
    ap.add_argument("--iters-lat", type=int, default=10000)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--medium", action="store_true",
                    help="fi_pingpong latency at 4 KiB .. 64 KiB")
    ap.add_argument("--plot", action="store_true")
    ap.add_argument("--cases", default=None,
                    help="comma-separated case ids to run (default: all)")
    args = ap.parse_args()

    out = args.out or os.path.join(HERE, "results",
                                   time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(out, exist_ok=True)
    provs = ["uet"] + [p for p in args.providers.split(",")
                       if p and p != "uet"]
    provs = [p for p in provs if available(p, args)]
    if "uet" not in provs:
        sys.exit("uet is not listed by fi_info (set --prov-path)")
    cases = build_cases(args)
    if args.cases:
        want = set(args.cases.split(","))
        cases = [c for c in cases if c[0] in want]
        # A loss case needs the lossless case it is compared with.
        if not cases or any(c in LOSS_CASES and LOSS_CASES[c] not in want
                            for c in want):
            sys.exit("--cases: unknown id, or a loss case without its base")
    rows = []
    for run in range(args.runs):
        for cid, title, unit, hib, fn, limit in cases:
            for prov in provs:
                if cid in LOSS_CASES and prov != "uet":
                    continue
                v = fn(prov, args)
                rows.append((cid, prov, run, v))
                print("run %d %-18s %-12s %s" % (run + 1, cid, prov,
                      "failed" if v is None else "%.4g %s" % (v, unit)),
                      flush=True)
            for lname, lfn in limits_of(limit).items():
                v = lfn()
                rows.append((cid, lname, run, v))
                print("run %d %-18s %-12s %s" % (run + 1, cid, lname,
                      "failed" if v is None else "%.4g %s" % (v, unit)),
                      flush=True)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "provider", "run", "value"])
        for r in rows:
            w.writerow([r[0], r[1], r[2], "" if r[3] is None else r[3]])

    summary = {}
    for cid, title, unit, hib, fn, limit in cases:
        s = {"title": title, "unit": unit, "higher_is_better": hib,
             "providers": {}}
        for prov in provs + list(limits_of(limit)):
            vals = [r[3] for r in rows
                    if r[0] == cid and r[1] == prov and r[3] is not None]
            if vals:
                s["providers"][prov] = {"median": statistics.median(vals),
                                        "min": min(vals), "max": max(vals),
                                        "n": len(vals)}
        summary[cid] = s
    # Loss cases: their uet median over the lossless uet median.
    for cid, base in LOSS_CASES.items():
        lossy = summary.get(cid, {}).get("providers", {}).get("uet")
        clean = summary.get(base, {}).get("providers", {}).get("uet")
        if lossy and clean and clean["median"]:
            summary[cid]["ratio_to_lossless"] = (lossy["median"] /
                                                 clean["median"])
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)

    print("\n%-18s %-12s %10s %10s %10s %s" % ("case", "provider", "median",
          "min", "max", "uet/this"))
    for cid, s in summary.items():
        u = s["providers"].get("uet", {}).get("median")
        for prov, st in s["providers"].items():
            ratio = "%.2f" % (u / st["median"]) if u and st["median"] else "-"
            print("%-18s %-12s %10.4g %10.4g %10.4g %s %s" % (
                cid, prov, st["median"], st["min"], st["max"], ratio,
                s["unit"]))
    for cid, base in LOSS_CASES.items():
        if "ratio_to_lossless" in summary.get(cid, {}):
            print("%-18s %-12s %.2f of %s (uet, %d ppm loss)" % (
                cid, "uet", summary[cid]["ratio_to_lossless"], base,
                LOSS_PPM))
    print("\nresults: %s" % out)
    if args.plot:
        plot(summary, provs, out)


def plot(summary, provs, out):
    if not shutil.which("gnuplot"):
        print("gnuplot not installed: no plot")
        return
    for kind, unit, fname in (("lat", "usec", "latency.png"),
                              ("bw", "GB/s", "bandwidth.png")):
        dat = os.path.join(out, kind + ".dat")
        with open(dat, "w") as f:
            for prov in provs:
                f.write('"%s"\n' % prov)
                for cid, s in summary.items():
                    if not cid.startswith("sweep_%s_" % kind):
                        continue
                    st = s["providers"].get(prov)
                    if st:
                        f.write("%s %g\n" % (cid.rsplit("_", 1)[1],
                                             st["median"]))
                f.write("\n\n")
        gp = ("set terminal png size 800,500; set output '%s';"
              "set logscale x 2; set xlabel 'message size (bytes)';"
              "set ylabel '%s'; set key left top;"
              "plot for [i=0:%d] '%s' index i using 1:2 with linespoints "
              "title columnheader(1)" % (os.path.join(out, fname), unit,
                                         len(provs) - 1, dat))
        if kind == "lat":
            gp = gp.replace("set logscale x 2;", "set logscale xy 2;")
        subprocess.run(["gnuplot", "-e", gp], check=False)
    print("plots: %s/latency.png %s/bandwidth.png" % (out, out))


if __name__ == "__main__":
    main()
