/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fi_info->nic from sysfs (uet_nic.h).
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rdma/fi_errno.h>

#include "uet_fi_no.h"
#include "uet_nic.h"
#include "uet_prov.h"

struct uet_nic {
	struct fid_nic nic;
	struct fi_device_attr device;
	struct fi_bus_attr bus;
	struct fi_link_attr link;
};

/* Strings of a nic, as collected before it is built. */
struct uet_nic_strs {
	const char *name, *device_id, *device_version, *vendor_id, *driver;
	const char *address, *network_type;
};

static int uet_nic_close(struct fid *fid);
static int uet_nic_control(struct fid *fid, int command, void *arg);
static int uet_nic_tostr(const struct fid *fid, char *buf, size_t len);

static struct fi_ops uet_nic_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = uet_nic_close,
	.bind = uet_no_bind,
	.control = uet_nic_control,
	.ops_open = uet_no_ops_open,
	.tostr = uet_nic_tostr,
	.ops_set = uet_no_ops_set,
};

static void uet_nic_free_strs(struct uet_nic *n)
{
	free(n->device.name);
	free(n->device.device_id);
	free(n->device.device_version);
	free(n->device.vendor_id);
	free(n->device.driver);
	free(n->device.firmware);
	free(n->link.address);
	free(n->link.network_type);
}

static int uet_nic_close(struct fid *fid)
{
	struct uet_nic *n = uet_container_of(fid, struct uet_nic, nic.fid);

	uet_nic_free_strs(n);
	free(n);
	return 0;
}

/* strdup of s, or NULL for NULL; *fail set when memory runs out. */
static char *uet_nic_dup_str(const char *s, bool *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

/* A nic of the given strings and values (the strings are copied). */
static struct fid_nic *uet_nic_build(const struct uet_nic_strs *s,
				     const struct fi_bus_attr *bus,
				     size_t mtu, size_t speed,
				     enum fi_link_state state)
{
	struct uet_nic *n = calloc(1, sizeof(*n));
	bool fail = false;

	if (!n)
		return NULL;
	n->nic.fid.fclass = FI_CLASS_NIC;
	n->nic.fid.ops = &uet_nic_fi_ops;
	n->nic.device_attr = &n->device;
	n->nic.bus_attr = &n->bus;
	n->nic.link_attr = &n->link;
	n->device.name = uet_nic_dup_str(s->name, &fail);
	n->device.device_id = uet_nic_dup_str(s->device_id, &fail);
	n->device.device_version = uet_nic_dup_str(s->device_version, &fail);
	n->device.vendor_id = uet_nic_dup_str(s->vendor_id, &fail);
	n->device.driver = uet_nic_dup_str(s->driver, &fail);
	n->link.address = uet_nic_dup_str(s->address, &fail);
	n->link.network_type = uet_nic_dup_str(s->network_type, &fail);
	n->bus = *bus;
	n->link.mtu = mtu;
	n->link.speed = speed;
	n->link.state = state;
	if (fail) {
		uet_nic_free_strs(n);
		free(n);
		return NULL;
	}
	return &n->nic;
}

static int uet_nic_control(struct fid *fid, int command, void *arg)
{
	struct uet_nic *n = uet_container_of(fid, struct uet_nic, nic.fid);
	struct uet_nic_strs s;
	struct fid_nic **dup = arg;

	if (command != FI_DUP)
		return -FI_ENOSYS;
	if (!dup)
		return -FI_EINVAL;
	s.name = n->device.name;
	s.device_id = n->device.device_id;
	s.device_version = n->device.device_version;
	s.vendor_id = n->device.vendor_id;
	s.driver = n->device.driver;
	s.address = n->link.address;
	s.network_type = n->link.network_type;
	*dup = uet_nic_build(&s, &n->bus, n->link.mtu, n->link.speed,
			     n->link.state);
	return *dup ? 0 : -FI_ENOMEM;
}

/* fi_tostr(FI_TYPE_INFO) appends "nic:" through this (len is what is
 * left after the text already in buf), as libfabric's own nics print. */
static const char *uet_nic_state_str(enum fi_link_state st)
{
	switch (st) {
	case FI_LINK_UP:
		return "FI_LINK_UP";
	case FI_LINK_DOWN:
		return "FI_LINK_DOWN";
	default:
		return "FI_LINK_UNKNOWN";
	}
}

#define UET_NIC_STR(s)	((s) ? (s) : "(null)")

static int uet_nic_tostr(const struct fid *fid, char *buf, size_t len)
{
	const struct uet_nic *n = uet_container_of(fid, struct uet_nic,
						   nic.fid);
	size_t used = strlen(buf);
	char bus[256];

	if (n->bus.bus_type == FI_BUS_PCI)
		snprintf(bus, sizeof(bus), "FI_BUS_PCI\n"
			 "            fi_pci_attr:\n"
			 "                domain_id: %u\n"
			 "                bus_id: %u\n"
			 "                device_id: %u\n"
			 "                function_id: %u",
			 n->bus.attr.pci.domain_id, n->bus.attr.pci.bus_id,
			 n->bus.attr.pci.device_id,
			 n->bus.attr.pci.function_id);
	else
		snprintf(bus, sizeof(bus), "FI_BUS_UNKNOWN");
	snprintf(buf + used, len,
		 "    nic:\n"
		 "        fi_device_attr:\n"
		 "            name: %s\n"
		 "            device_id: %s\n"
		 "            device_version: %s\n"
		 "            vendor_id: %s\n"
		 "            driver: %s\n"
		 "            firmware: %s\n"
		 "        fi_bus_attr:\n"
		 "            bus_type: %s\n"
		 "        fi_link_attr:\n"
		 "            address: %s\n"
		 "            mtu: %zu\n"
		 "            speed: %zu\n"
		 "            state: %s\n"
		 "            network_type: %s\n",
		 UET_NIC_STR(n->device.name), UET_NIC_STR(n->device.device_id),
		 UET_NIC_STR(n->device.device_version),
		 UET_NIC_STR(n->device.vendor_id),
		 UET_NIC_STR(n->device.driver),
		 UET_NIC_STR(n->device.firmware), bus,
		 UET_NIC_STR(n->link.address), n->link.mtu, n->link.speed,
		 uet_nic_state_str(n->link.state),
		 UET_NIC_STR(n->link.network_type));
	return 0;
}

/* ---- sysfs ---- */

/* The first line of dir/file without its newline; false if unreadable
 * or empty. */
static bool uet_nic_read(const char *dir, const char *file, char *buf,
			 size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] != '\0';
}

static bool uet_nic_read_long(const char *dir, const char *file, long *v)
{
	char buf[32], *end;

	if (!uet_nic_read(dir, file, buf, sizeof(buf)))
		return false;
	*v = strtol(buf, &end, 0);
	return end != buf && !*end;
}

/* A PCI function's sysfs name, "dddd:bb:dd.f". */
static bool uet_nic_pci_name(const char *s, struct fi_pci_attr *pci)
{
	unsigned int dom, bus, dev, fn;
	int used = -1;

	if (sscanf(s, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &used) != 4 ||
	    used != (int)strlen(s) || used != 12)
		return false;
	pci->domain_id = (uint16_t)dom;
	pci->bus_id = (uint8_t)bus;
	pci->device_id = (uint8_t)dev;
	pci->function_id = (uint8_t)fn;
	return true;
}

/*
 * The PCI function nearest the device on path (a resolved sysfs device
 * path): cuts path after it and fills pci; false when there is none.
 */
static bool uet_nic_pci_of(char *path, struct fi_pci_attr *pci)
{
	char *slash;

	for (;;) {
		slash = strrchr(path, '/');
		if (!slash)
			return false;
		if (uet_nic_pci_name(slash + 1, pci))
			return true;
		*slash = '\0';
	}
}

/* basename of the link dir/file into buf; false if it is no link. */
static bool uet_nic_link_base(const char *dir, const char *file, char *buf,
			      size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return false;
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return false;
	strcpy(buf, base);
	return true;
}

static enum fi_link_state uet_nic_state(const char *ifdir)
{
	char buf[32];
	long carrier;

	if (!uet_nic_read(ifdir, "operstate", buf, sizeof(buf)))
		return FI_LINK_UNKNOWN;
	if (!strcmp(buf, "up"))
		return FI_LINK_UP;
	if (!strcmp(buf, "down") || !strcmp(buf, "lowerlayerdown") ||
	    !strcmp(buf, "notpresent"))
		return FI_LINK_DOWN;
	/* "unknown" (lo, tunnels): the carrier says whether it carries. */
	if (uet_nic_read_long(ifdir, "carrier", &carrier))
		return carrier ? FI_LINK_UP : FI_LINK_DOWN;
	return FI_LINK_UNKNOWN;
}

/* The PCI function on the sysfs path of ifdir's device: its directory
 * into pcidir (PATH_MAX) and its address; false when there is none. */
static bool uet_nic_own_pci(const char *ifdir, char *pcidir,
			    struct fi_pci_attr *pci)
{
	char dev[PATH_MAX];

	return (size_t)snprintf(dev, sizeof(dev), "%s/device", ifdir) <
	       sizeof(dev) && realpath(dev, pcidir) &&
	       uet_nic_pci_of(pcidir, pci);
}

#define UET_NIC_LOWER_DEPTH	4

/* The PCI function of a lower interface of ifname (the lower_<if>
 * links of a vlan, macvlan or bond), depth levels down at most. */
static bool uet_nic_lower_pci(const char *sysfs_net, const char *ifname,
			      int depth, struct fi_pci_attr *pci)
{
	char ifdir[PATH_MAX], lower[PATH_MAX], pcidir[PATH_MAX];
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (depth <= 0 || (size_t)snprintf(ifdir, sizeof(ifdir), "%s/%s",
					   sysfs_net, ifname) >= sizeof(ifdir))
		return false;
	d = opendir(ifdir);
	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		if (strncmp(e->d_name, "lower_", 6) || !e->d_name[6] ||
		    strchr(e->d_name + 6, '/'))
			continue;
		if ((size_t)snprintf(lower, sizeof(lower), "%s/%s", sysfs_net,
				     e->d_name + 6) >= sizeof(lower))
			continue;
		found = uet_nic_own_pci(lower, pcidir, pci) ||
			uet_nic_lower_pci(sysfs_net, e->d_name + 6, depth - 1,
					  pci);
	}
	closedir(d);
	return found;
}

static bool uet_nic_pci_less(const struct fi_pci_attr *a,
			     const struct fi_pci_attr *b)
{
	uint64_t ka = (uint64_t)a->domain_id << 24 |
		      (uint64_t)a->bus_id << 16 | (uint64_t)a->device_id << 8 |
		      a->function_id;
	uint64_t kb = (uint64_t)b->domain_id << 24 |
		      (uint64_t)b->bus_id << 16 | (uint64_t)b->device_id << 8 |
		      b->function_id;

	return ka < kb;
}

/* The host's first network controller (PCI class 0x02) under sysfs_pci,
 * in domain:bus:device.function order. */
static bool uet_nic_first_netdev(const char *sysfs_pci,
				 struct fi_pci_attr *pci)
{
	char dir[PATH_MAX];
	struct fi_pci_attr cur;
	struct dirent *e;
	bool found = false;
	long cls;
	DIR *d;

	if (!sysfs_pci)
		return false;
	d = opendir(sysfs_pci);
	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (!uet_nic_pci_name(e->d_name, &cur) ||
		    (size_t)snprintf(dir, sizeof(dir), "%s/%s", sysfs_pci,
				     e->d_name) >= sizeof(dir) ||
		    !uet_nic_read_long(dir, "class", &cls) ||
		    (cls >> 16) != 0x02)
			continue;
		if (!found || uet_nic_pci_less(&cur, pci))
			*pci = cur;
		found = true;
	}
	closedir(d);
	return found;
}

struct fid_nic *uet_nic_new(const char *sysfs_net, const char *sysfs_pci,
			    const char *ifname)
{
	char ifdir[PATH_MAX], pcidir[PATH_MAX];
	char vendor[32], device[32], rev[32], driver[64], addr[64], ntype[32];
	struct uet_nic_strs s;
	struct fi_bus_attr bus;
	long mtu = 0, speed = 0, type;
	enum fi_link_state state;

	if (!sysfs_net || !ifname || !*ifname || strchr(ifname, '/'))
		return NULL;
	memset(&s, 0, sizeof(s));
	memset(&bus, 0, sizeof(bus));
	bus.bus_type = FI_BUS_UNKNOWN;
	s.name = ifname;
	if ((size_t)snprintf(ifdir, sizeof(ifdir), "%s/%s", sysfs_net,
			     ifname) >= sizeof(ifdir))
		return uet_nic_build(&s, &bus, 0, 0, FI_LINK_UNKNOWN);

	if (uet_nic_read(ifdir, "address", addr, sizeof(addr)))
		s.address = addr;
	if (uet_nic_read_long(ifdir, "type", &type)) {
		if (type == 1)
			snprintf(ntype, sizeof(ntype), "Ethernet");
		else if (type == 772)
			snprintf(ntype, sizeof(ntype), "loopback");
		else
			snprintf(ntype, sizeof(ntype), "ARPHRD %ld", type);
		s.network_type = ntype;
	}
	if (!uet_nic_read_long(ifdir, "mtu", &mtu) || mtu < 0)
		mtu = 0;
	/* Mb/s; -1 or an error when the device does not know. */
	if (!uet_nic_read_long(ifdir, "speed", &speed) || speed < 0)
		speed = 0;
	state = uet_nic_state(ifdir);

	if (uet_nic_link_base(ifdir, "device/driver", driver, sizeof(driver)))
		s.driver = driver;
	if (uet_nic_own_pci(ifdir, pcidir, &bus.attr.pci)) {
		bus.bus_type = FI_BUS_PCI;
		if (uet_nic_read(pcidir, "vendor", vendor, sizeof(vendor)))
			s.vendor_id = vendor;
		if (uet_nic_read(pcidir, "device", device, sizeof(device)))
			s.device_id = device;
		if (uet_nic_read(pcidir, "revision", rev, sizeof(rev)))
			s.device_version = rev;
	} else if (uet_nic_lower_pci(sysfs_net, ifname, UET_NIC_LOWER_DEPTH,
				     &bus.attr.pci) ||
		   uet_nic_first_netdev(sysfs_pci, &bus.attr.pci)) {
		/* a virtual interface, anchored (uet_nic.h) */
		bus.bus_type = FI_BUS_PCI;
	}
	return uet_nic_build(&s, &bus, (size_t)mtu,
			     (size_t)speed * 1000 * 1000, state);
}
