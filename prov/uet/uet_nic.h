/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fi_info->nic for a uet domain: the network interface the domain's
 * software NIC sends through, described from sysfs
 * (/sys/class/net/<if>/...) where the files exist:
 *
 *   device_attr  name = the interface; driver = basename of
 *                device/driver; vendor_id, device_id, device_version =
 *                the PCI function's vendor, device, revision files
 *                ("0x1af4"); firmware unknown (NULL)
 *   bus_attr     FI_BUS_PCI and the domain:bus:device.function of the
 *                first PCI function on the device's sysfs path (a
 *                virtio-net interface sits under one).  An interface
 *                without one (lo, veth, bridge, vlan, tunnel) is
 *                anchored to the PCI function of its lower interface
 *                (lower_<if> links: vlan, macvlan, bond) when that has
 *                one, else to the host's first network controller (PCI
 *                class 0x02, lowest domain:bus:device.function) under
 *                the PCI devices directory: topology-aware clients
 *                (aws-ofi-nccl's RDMA protocol places NICs in the hwloc
 *                tree by this address) need one, and the software NIC's
 *                traffic leaves the host there if at all.  Such an
 *                anchored nic keeps vendor_id, device_id and driver NULL
 *                (they would describe another device); only with no
 *                network controller at all is the bus FI_BUS_UNKNOWN
 *   link_attr    address = the hardware address (address file); mtu =
 *                the IP MTU (mtu); speed in bits per second (speed is in
 *                Mb/s; unknown or -1, as for lo and most virtual
 *                devices: 0); state from operstate ("up": FI_LINK_UP,
 *                "down"/"lowerlayerdown"/"notpresent": FI_LINK_DOWN,
 *                "unknown", as lo reports: carrier decides); network_type
 *                "Ethernet", "loopback" or "ARPHRD <n>" from type
 *
 * A missing file leaves its field 0/NULL.  The fid_nic answers fi_close
 * and fi_control(FI_DUP) (fi_freeinfo and fi_dupinfo use them); the
 * strings and the fid_nic are one allocation each, freed by fi_close.
 */
#ifndef UET_NIC_H
#define UET_NIC_H

#include <rdma/fabric.h>

/* Where interfaces and PCI functions are described; a test may point
 * elsewhere. */
#define UET_NIC_SYSFS_NET	"/sys/class/net"
#define UET_NIC_SYSFS_PCI	"/sys/bus/pci/devices"

/*
 * The nic of interface ifname under sysfs_net (UET_NIC_SYSFS_NET in the
 * provider), anchored to a PCI function of sysfs_pci (UET_NIC_SYSFS_PCI;
 * NULL: no anchor) when it has none of its own.  Returns NULL only when
 * memory runs out or ifname is NULL/empty/contains '/'.
 */
struct fid_nic *uet_nic_new(const char *sysfs_net, const char *sysfs_pci,
			    const char *ifname);

#endif /* UET_NIC_H */
