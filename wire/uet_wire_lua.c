/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writes the Wireshark Lua dissector for uet (contrib/wireshark/uet.lua)
 * from the wire description (uet_wire_desc.h): one source of truth for
 * the codecs' tests and the dissector.  test/wireshark-lua-up-to-date.sh
 * fails when the checked-in file differs from this program's output.
 *
 *   uet_wire_lua [OUT]      the dissector on OUT (default stdout)
 *   uet_wire_lua --fields   the filter names, one a line
 *
 * docs/wireshark.md says how to use the dissector.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_wire_desc.h"

/* One filter name and the ProtoField every use of it shares. */
struct pf {
	char abbrev[64];
	unsigned int kind;	/* UET_WD_UINT (ints), BOOL or BYTES */
	bool sint, uint;	/* used signed / unsigned */
	unsigned int bits;	/* widest use */
	int vals;		/* shared value table, -1: uses differ */
};

#define MAX_PF	256
static struct pf pfs[MAX_PF];
static size_t npf;

static void abbrev_of(char *out, size_t n, const struct uet_wd_fmt *f,
		      const struct uet_wd_field *fl)
{
	snprintf(out, n, "%s.%s", uet_wd_layer_prefix(f->layer), fl->name);
}

static unsigned int use_bits(const struct uet_wd_field *fl)
{
	if (fl->msize && fl->kind != UET_WD_BYTES)
		return 8u * fl->msize;
	return uet_wd_field_bits(fl);
}

static struct pf *pf_find(const char *abbrev)
{
	size_t i;

	for (i = 0; i < npf; i++)
		if (!strcmp(pfs[i].abbrev, abbrev))
			return &pfs[i];
	return NULL;
}

static int collect(void)
{
	const struct uet_wd_fmt *f;
	const struct uet_wd_field *fl;
	unsigned int wp, id, kind;
	char ab[64];
	struct pf *p;
	size_t i;

	for (wp = 0; wp < UET_WIRE_NPROF; wp++) {
		for (id = 1; id < UET_WD_NFMT; id++) {
			f = uet_wd_fmt(wp, id);
			for (i = 0; i < f->n; i++) {
				fl = &f->f[i];
				if (fl->kind == UET_WD_RSVD)
					continue;
				abbrev_of(ab, sizeof(ab), f, fl);
				kind = fl->kind == UET_WD_SINT ? UET_WD_UINT :
				       fl->kind;
				p = pf_find(ab);
				if (!p) {
					if (npf == MAX_PF)
						return -1;
					p = &pfs[npf++];
					snprintf(p->abbrev, sizeof(p->abbrev),
						 "%s", ab);
					p->kind = kind;
					p->vals = fl->vals;
				} else if (p->kind != kind) {
					fprintf(stderr, "%s: used as two kinds\n",
						ab);
					return -1;
				}
				if (fl->kind == UET_WD_SINT)
					p->sint = true;
				else
					p->uint = true;
				if (use_bits(fl) > p->bits)
					p->bits = use_bits(fl);
				if (p->vals != (int)fl->vals)
					p->vals = -1;
			}
		}
	}
	return 0;
}

static unsigned int int_width(const struct pf *p)
{
	unsigned int b = p->bits + (p->sint && p->uint ? 1 : 0);

	return b <= 8 ? 8 : b <= 16 ? 16 : b <= 32 ? 32 : 64;
}

static void lua_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', o);
		fputc(*s, o);
	}
	fputc('"', o);
}

static void emit_vals(FILE *o)
{
	const struct uet_wd_vtab *t;
	unsigned int v;
	size_t i;

	fprintf(o, "local VALS = {\n");
	for (v = 1; v < UET_WD_NVALS; v++) {
		t = uet_wd_vtab(v);
		fprintf(o, "  [%u] = { -- %s\n", v, t->name);
		for (i = 0; i < t->n; i++) {
			fprintf(o, "    [%" PRIu32 "] = ", t->v[i].v);
			lua_str(o, t->v[i].name);
			fprintf(o, ",\n");
		}
		fprintf(o, "  },\n");
	}
	fprintf(o, "}\n\n");
}

static void emit_fields(FILE *o)
{
	const struct pf *p;
	const char *leaf;
	char vs[32];
	size_t i;

	fprintf(o, "local F = {}\n");
	for (i = 0; i < npf; i++) {
		p = &pfs[i];
		leaf = strrchr(p->abbrev, '.') + 1;
		fprintf(o, "F[\"%s\"] = ", p->abbrev);
		if (p->kind == UET_WD_BOOL) {
			fprintf(o, "ProtoField.bool(\"%s\", \"%s\")\n",
				p->abbrev, leaf);
			continue;
		}
		if (p->kind == UET_WD_BYTES) {
			fprintf(o, "ProtoField.bytes(\"%s\", \"%s\")\n",
				p->abbrev, leaf);
			continue;
		}
		if (p->vals > 0)
			snprintf(vs, sizeof(vs), ", VALS[%d]", p->vals);
		else
			vs[0] = '\0';
		fprintf(o, "ProtoField.%s%u(\"%s\", \"%s\", base.DEC%s)\n",
			p->sint ? "int" : "uint", int_width(p), p->abbrev,
			leaf, vs);
	}
	fprintf(o, "F[\"uet.reserved\"] = ProtoField.bytes(\"uet.reserved\", "
		"\"reserved (not zero)\")\n");
	fprintf(o, "F[\"uet.payload\"] = ProtoField.bytes(\"uet.payload\", "
		"\"payload\")\n");
	fprintf(o, "F[\"uet.payload_len\"] = ProtoField.uint32("
		"\"uet.payload_len\", \"payload length\", base.DEC)\n");
	fprintf(o, "F[\"uet.tss.encrypted\"] = ProtoField.bytes("
		"\"uet.tss.encrypted\", \"encrypted PDS datagram and tag\")\n");
	fprintf(o, "F[\"uet.profile\"] = ProtoField.string(\"uet.profile\", "
		"\"wire profile\")\n");
	fprintf(o, "do\n  local all = {}\n  for _, f in pairs(F) do "
		"all[#all + 1] = f end\n  uet.fields = all\nend\n\n");
}

static void emit_hex64(FILE *o, uint64_t v)
{
	fprintf(o, "\"%016" PRIx64 "\"", v);
}

static void emit_fmt(FILE *o, const struct uet_wd_fmt *f)
{
	const struct uet_wd_field *fl;
	const struct pf *p;
	unsigned int bits, sh;
	char ab[64];
	size_t i;

	fprintf(o, "  [%u] = { name = \"%s\", title = ", f->id, f->name);
	lua_str(o, f->title);
	fprintf(o, ", len = %u, f = {\n", f->len);
	for (i = 0; i < f->n; i++) {
		fl = &f->f[i];
		bits = uet_wd_field_bits(fl);
		sh = uet_wd_mask_shift(fl->mask);
		fprintf(o, "    { ");
		if (fl->kind == UET_WD_RSVD) {
			fprintf(o, "k = \"r\", o = %u, l = %u },\n", fl->off,
				fl->len);
			continue;
		}
		abbrev_of(ab, sizeof(ab), f, fl);
		p = pf_find(ab);
		fprintf(o, "pf = F[\"%s\"], k = \"%c\", o = %u, l = %u, "
			"sh = %u, bits = %u", ab,
			fl->kind == UET_WD_BOOL ? 'b' :
			fl->kind == UET_WD_BYTES ? 'y' :
			fl->kind == UET_WD_SINT ? 's' : 'u',
			fl->off, fl->len, sh, bits);
		if (fl->len == 8 && bits < 64) {
			fprintf(o, ", m64 = ");
			emit_hex64(o, bits >= 64 ? UINT64_MAX :
				   (UINT64_C(1) << bits) - 1);
		}
		if (p->kind == UET_WD_UINT && int_width(p) == 64)
			fprintf(o, ", w64 = true");
		if (fl->when_mask)
			fprintf(o, ", wo = %u, ws = %u, wb = %u, wv = %u",
				fl->when_off, uet_wd_mask_shift(fl->when_mask),
				uet_wd_mask_bits(fl->when_mask),
				fl->when_val >>
				uet_wd_mask_shift(fl->when_mask));
		if (fl->vals)
			fprintf(o, ", v = %u", fl->vals);
		if (fl->vals && p->vals < 0)
			fprintf(o, ", vt = VALS[%u]", fl->vals);
		fprintf(o, " },\n");
	}
	fprintf(o, "  } },\n");
}

static void emit_tables(FILE *o)
{
	const struct uet_wd_ses_rule *sr;
	const struct uet_wd_ext_rule *xr;
	unsigned int wp, id, t;
	size_t i, n;

	fprintf(o, "-- Every format, per profile (0 UE+, 1 UE 1.0.1): "
		"fields with byte offset o,\n-- word length l, bits >> sh "
		"of width bits, present when (byte wo >> ws) %% 2^wb == wv.\n");
	fprintf(o, "local FMT = {}\n");
	for (wp = 0; wp < UET_WIRE_NPROF; wp++) {
		fprintf(o, "FMT[%u] = {\n", wp);
		for (id = 1; id < UET_WD_NFMT; id++)
			emit_fmt(o, uet_wd_fmt(wp, id));
		fprintf(o, "}\n");
	}
	fprintf(o, "\n-- PDS type -> PDS header\nlocal PDS_FMT = {");
	for (t = 0; t < 32; t++)
		if (uet_wd_pds_fmt(UET_WIRE_UEPLUS, t))
			fprintf(o, " [%u] = %u,", t,
				uet_wd_pds_fmt(UET_WIRE_UEPLUS, t));
	fprintf(o, " }\n");
	fprintf(o, "-- next_hdr and SES bytes 0-1 -> SES header (first match)\n"
		"local SES_RULES = {}\n");
	for (wp = 0; wp < UET_WIRE_NPROF; wp++) {
		sr = uet_wd_ses_rules(wp, &n);
		fprintf(o, "SES_RULES[%u] = {\n", wp);
		for (i = 0; i < n; i++)
			fprintf(o, "  { nh = %u, b = %u, sh = %u, lo = %u, "
				"hi = %u, sm = %u, sv = %u, f = %u },\n",
				sr[i].nh, sr[i].op_byte, sr[i].op_shift,
				sr[i].op_lo, sr[i].op_hi, sr[i].som_mask,
				sr[i].som_val, sr[i].fmt);
		fprintf(o, "}\n");
	}
	fprintf(o, "-- SES header, its opcode and the atomic opcode -> "
		"extension (first match)\nlocal EXT_RULES = {}\n");
	for (wp = 0; wp < UET_WIRE_NPROF; wp++) {
		xr = uet_wd_ext_rules(wp, &n);
		fprintf(o, "EXT_RULES[%u] = {\n", wp);
		for (i = 0; i < n; i++)
			fprintf(o, "  { p = %u, lo = %u, hi = %u, alo = %u, "
				"ahi = %u, f = %u },\n", xr[i].parent,
				xr[i].op_lo, xr[i].op_hi, xr[i].amo_lo,
				xr[i].amo_hi, xr[i].fmt);
		fprintf(o, "}\n");
	}
	fprintf(o, "local ID = { CP = %u, TSS_PROLOGUE = %u, TSS_HDR = %u, "
		"TSS_DCI = %u }\n\n", UET_WD_CP, UET_WD_TSS_PROLOGUE,
		UET_WD_TSS_HDR, UET_WD_TSS_DCI);
}

/* The hand-written part: reading fields and walking the chain. */
static const char *const body =
"local E_TRUNC = ProtoExpert.new(\"uet.malformed.truncated\",\n"
"  \"UET header truncated\", expert.group.MALFORMED, expert.severity.ERROR)\n"
"local E_UNKNOWN = ProtoExpert.new(\"uet.unknown\",\n"
"  \"UET header not known in this profile\", expert.group.UNDECODED,\n"
"  expert.severity.WARN)\n"
"local E_RSVD = ProtoExpert.new(\"uet.reserved_not_zero\",\n"
"  \"reserved bits not zero\", expert.group.PROTOCOL, expert.severity.WARN)\n"
"uet.experts = { E_TRUNC, E_UNKNOWN, E_RSVD }\n"
"\n"
"local PROF_NAME = { [0] = \"UE+\", [1] = \"UE 1.0.1\" }\n"
"\n"
"local function bits_of(v, sh, bits)\n"
"  return math.floor(v / 2 ^ sh) % 2 ^ bits\n"
"end\n"
"\n"
"-- (byte wo of the header >> ws) % 2^wb == wv, or no condition\n"
"local function present(tvb, base, e)\n"
"  if not e.wo then return true end\n"
"  return bits_of(tvb(base + e.wo, 1):uint(), e.ws, e.wb) == e.wv\n"
"end\n"
"\n"
"-- The field's value as the wire holds it.\n"
"local function value(tvb, base, e)\n"
"  if e.l == 8 then\n"
"    local v = tvb(base + e.o, 8):uint64()\n"
"    if e.m64 then v = v:rshift(e.sh):band(UInt64.fromhex(e.m64)) end\n"
"    return v\n"
"  end\n"
"  local v = tvb(base + e.o, e.l):uint()\n"
"  if e.bits < 8 * e.l then v = bits_of(v, e.sh, e.bits) end\n"
"  if e.k == \"s\" and v >= 2 ^ (e.bits - 1) then v = v - 2 ^ e.bits end\n"
"  return v\n"
"end\n"
"\n"
"local function small(v)\n"
"  if type(v) == \"number\" then return v end\n"
"  return v:tonumber()\n"
"end\n"
"\n"
"-- Add header fmt at base; its length, or nil when truncated.\n"
"local function header(tvb, pinfo, tree, base, fmt)\n"
"  local have = tvb:len() - base\n"
"  if have < fmt.len then\n"
"    local it\n"
"    if have > 0 then\n"
"      it = tree:add(tvb(base, have), fmt.title)\n"
"    else\n"
"      it = tree:add(tvb(0, 0), fmt.title)\n"
"    end\n"
"    it:add_proto_expert_info(E_TRUNC, fmt.title .. \": \" .. have ..\n"
"      \" of \" .. fmt.len .. \" bytes\")\n"
"    return nil\n"
"  end\n"
"  local t = tree:add(tvb(base, fmt.len), fmt.title)\n"
"  for _, e in ipairs(fmt.f) do\n"
"    local r = tvb(base + e.o, e.l)\n"
"    if e.k == \"r\" then\n"
"      local zero = true\n"
"      for i = 0, e.l - 1 do\n"
"        if r(i, 1):uint() ~= 0 then zero = false end\n"
"      end\n"
"      if not zero then\n"
"        t:add(F[\"uet.reserved\"], r):add_proto_expert_info(E_RSVD)\n"
"      end\n"
"    elseif present(tvb, base, e) then\n"
"      if e.k == \"y\" then\n"
"        t:add(e.pf, r)\n"
"      elseif e.k == \"b\" then\n"
"        local v = value(tvb, base, e)\n"
"        t:add(e.pf, r, small(v) ~= 0)\n"
"      else\n"
"        local v = value(tvb, base, e)\n"
"        if e.w64 and type(v) == \"number\" then\n"
"          if e.k == \"s\" then v = Int64.new(v) else v = UInt64.new(v) end\n"
"        end\n"
"        local it = t:add(e.pf, r, v)\n"
"        if e.vt then\n"
"          it:append_text(\" (\" .. (e.vt[small(v)] or \"unknown\") .. \")\")\n"
"        end\n"
"      end\n"
"    end\n"
"  end\n"
"  return fmt.len, t\n"
"end\n"
"\n"
"local function ses_fmt(prof, nh, tvb, base)\n"
"  if tvb:len() - base < 2 then return nil end\n"
"  local b1 = tvb(base + 1, 1):uint()\n"
"  for _, r in ipairs(SES_RULES[prof]) do\n"
"    if r.nh == nh then\n"
"      local op = math.floor(tvb(base + r.b, 1):uint() / 2 ^ r.sh) % 64\n"
"      if op >= r.lo and op <= r.hi and\n"
"         (r.sm == 0 or (math.floor(b1 / r.sm) % 2) * r.sm == r.sv) then\n"
"        return r.f\n"
"      end\n"
"    end\n"
"  end\n"
"  return nil\n"
"end\n"
"\n"
"local function ext_fmt(prof, sf, tvb, base)\n"
"  local fmt = FMT[prof][sf]\n"
"  local op = small(value(tvb, base, fmt.f[1]))\n"
"  for _, r in ipairs(EXT_RULES[prof]) do\n"
"    if r.p == sf and op >= r.lo and op <= r.hi then\n"
"      if r.alo == 0 and r.ahi == 255 then return r.f end\n"
"      if tvb:len() > base + fmt.len then\n"
"        local a = tvb(base + fmt.len, 1):uint()\n"
"        if a >= r.alo and a <= r.ahi then return r.f end\n"
"      end\n"
"    end\n"
"  end\n"
"  return nil\n"
"end\n"
"\n"
"local function payload(tvb, tree, off)\n"
"  local n = tvb:len() - off\n"
"  tree:add(F[\"uet.payload_len\"], n):set_generated()\n"
"  if n > 0 then tree:add(F[\"uet.payload\"], tvb(off, n)) end\n"
"end\n"
"\n"
"function uet.dissector(tvb, pinfo, tree)\n"
"  local prof = uet.prefs.profile\n"
"  pinfo.cols.protocol = \"UET\"\n"
"  local root = tree:add(uet, tvb(), \"Ultra Ethernet Transport, \" ..\n"
"    PROF_NAME[prof])\n"
"  root:add(F[\"uet.profile\"], prof == 1 and \"ue\" or \"ueplus\")"
":set_generated()\n"
"  if tvb:len() < 2 then\n"
"    root:add_proto_expert_info(E_TRUNC, \"shorter than a PDS prologue\")\n"
"    return tvb:len()\n"
"  end\n"
"  local ptype = math.floor(tvb(0, 1):uint() / 8)\n"
"  if ptype == 1 then\n"
"    -- uet's TSS framing: prologue, TSS header, DCI, ciphertext + tag\n"
"    local off = header(tvb, pinfo, root, 0, FMT[prof][ID.TSS_PROLOGUE])\n"
"    if not off then return tvb:len() end\n"
"    local n = header(tvb, pinfo, root, off, FMT[prof][ID.TSS_HDR])\n"
"    if not n then return tvb:len() end\n"
"    local flags = tvb(off, 1):uint() % 16\n"
"    off = off + n\n"
"    if flags % 2 == 1 then\n"
"      n = header(tvb, pinfo, root, off, FMT[prof][ID.TSS_DCI])\n"
"      if not n then return tvb:len() end\n"
"      off = off + n\n"
"    end\n"
"    if tvb:len() > off then\n"
"      root:add(F[\"uet.tss.encrypted\"], tvb(off, tvb:len() - off))\n"
"    end\n"
"    pinfo.cols.info:set(\"TSS\" .. (flags >= 2 and \" announce\" or \"\"))\n"
"    return tvb:len()\n"
"  end\n"
"  local fid = PDS_FMT[ptype]\n"
"  local info = VALS[1][ptype] or (\"type \" .. ptype)\n"
"  pinfo.cols.info:set(info)\n"
"  if not fid then\n"
"    root:add_proto_expert_info(E_UNKNOWN, \"PDS type \" .. ptype)\n"
"    payload(tvb, root, 0)\n"
"    return tvb:len()\n"
"  end\n"
"  local off = header(tvb, pinfo, root, 0, FMT[prof][fid])\n"
"  if not off then return tvb:len() end\n"
"  local nh = math.floor(tvb(0, 2):uint() / 128) % 16\n"
"  if fid ~= ID.CP and nh ~= 0 then\n"
"    local sf = ses_fmt(prof, nh, tvb, off)\n"
"    if not sf then\n"
"      root:add_proto_expert_info(E_UNKNOWN, \"SES header, next_hdr \" .. nh)\n"
"    else\n"
"      local fmt = FMT[prof][sf]\n"
"      local n = header(tvb, pinfo, root, off, fmt)\n"
"      if not n then return tvb:len() end\n"
"      local name = fmt.name\n"
"      for _, e in ipairs(fmt.f) do\n"
"        if e.pf == F[\"uet.ses.opcode\"] then\n"
"          name = VALS[e.v][small(value(tvb, off, e))] or name\n"
"        end\n"
"      end\n"
"      pinfo.cols.info:append(\" \" .. name)\n"
"      local xf = ext_fmt(prof, sf, tvb, off)\n"
"      off = off + n\n"
"      if xf then\n"
"        n = header(tvb, pinfo, root, off, FMT[prof][xf])\n"
"        if not n then return tvb:len() end\n"
"        off = off + n\n"
"      end\n"
"    end\n"
"  end\n"
"  payload(tvb, root, off)\n"
"  return tvb:len()\n"
"end\n"
"\n"
"-- UDP: the UET port and the entropy ports above it (uet sprays from\n"
"-- ports P + 1 .. P + span of a NIC on port P; docs/wireshark.md).\n"
"local udp_port = DissectorTable.get(\"udp.port\")\n"
"local registered = nil\n"
"local function register()\n"
"  if registered then udp_port:remove(registered, uet) end\n"
"  local p, s = uet.prefs.port, uet.prefs.span\n"
"  if s > 0 then\n"
"    registered = p .. \"-\" .. math.min(p + s, 65535)\n"
"  else\n"
"    registered = p\n"
"  end\n"
"  udp_port:add(registered, uet)\n"
"end\n"
"function uet.prefs_changed()\n"
"  register()\n"
"end\n"
"register()\n";

static int emit(FILE *o)
{
	fprintf(o,
"-- SPDX-License-Identifier: BSD-2-Clause\n"
"--\n"
"-- Wireshark dissector for uet's UET over UDP, both wire profiles:\n"
"-- UE+ (ueplus, the default) and UE 1.0.1 (ue).\n"
"--\n"
"-- GENERATED by wire/uet_wire_lua from the wire description\n"
"-- (wire/uet_wire_desc.c): do not edit; `make -C <build> "
"wireshark-lua`\n"
"-- rewrites it.  Install and use: docs/wireshark.md.\n"
"\n"
"local uet = Proto(\"uet\", \"Ultra Ethernet Transport (uet)\")\n"
"uet.prefs.profile = Pref.enum(\"Wire profile\", 0,\n"
"  \"UE+ (uet's default, FI_UET_WIRE=ueplus) or UE 1.0.1 "
"(FI_UET_WIRE=ue)\",\n"
"  { { 1, \"ueplus\", 0 }, { 2, \"ue\", 1 } }, true)\n"
"uet.prefs.port = Pref.uint(\"UDP port\", %u,\n"
"  \"UDP port of the UET NICs (FI_UET_PORT)\")\n"
"uet.prefs.span = Pref.uint(\"Entropy port span\", %u,\n"
"  \"A NIC on port P sprays from ports P + 1 .. P + span; 0: port only\")\n"
"\n", UET_UDP_PORT, UET_WD_ENTROPY_SPAN);
	emit_vals(o);
	emit_fields(o);
	emit_tables(o);
	fputs(body, o);
	return ferror(o) ? -1 : 0;
}

int main(int argc, char **argv)
{
	FILE *o = stdout;
	size_t i;
	int ret;

	if (collect())
		return 1;
	if (argc > 1 && !strcmp(argv[1], "--fields")) {
		for (i = 0; i < npf; i++)
			printf("%s\n", pfs[i].abbrev);
		return 0;
	}
	if (argc > 1) {
		o = fopen(argv[1], "w");
		if (!o) {
			perror(argv[1]);
			return 1;
		}
	}
	ret = emit(o);
	if (o != stdout && fclose(o))
		ret = -1;
	return ret ? 1 : 0;
}
