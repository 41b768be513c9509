/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the UDP datagrams of a capture, for the tools of test/ that
 * look at uet's traffic (uet_pcap_fields, ue_capture_audit).  Classic
 * pcap, microsecond or nanosecond, either byte order; link types
 * Ethernet (and one VLAN tag), Linux cooked v1/v2, raw IP; IPv4 (no
 * fragments) and IPv6 without extension headers.
 */
#ifndef UET_PCAP_H
#define UET_PCAP_H

#include <stddef.h>
#include <stdint.h>

/* Called with the UDP payload of each datagram kept, numbered as the
 * capture's frames (from 1). */
typedef void (*uet_pcap_cb)(void *arg, uint64_t frame, const uint8_t *udp,
			    size_t len);

/*
 * Every UDP datagram of the pcap file at path whose source or destination
 * port is within port .. port + span (port 0: every UDP datagram), in
 * order: 0, or 1 after a message on stderr (unreadable or not a pcap).
 */
int uet_pcap_read(const char *path, unsigned int port, unsigned int span,
		  uet_pcap_cb cb, void *arg);

#endif /* UET_PCAP_H */
