/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one list of "not supported" ops-table slots (see uet_fi_no.h for
 * the return-value conventions).  Each entry is
 *
 *	UET_NO(return type, function name, value returned, (parameters))
 *
 * uet_fi_no.h expands it into declarations and uet_fi_no.c into
 * definitions, so a slot's signature is written once.  No include
 * guard: included once per expansion, with UET_NO defined.
 */
/* ---- struct fi_ops (every fid) ---- */
UET_NO(int, uet_no_bind, -FI_ENOSYS,
	(struct fid *fid, struct fid *bfid, uint64_t flags))
UET_NO(int, uet_no_control, -FI_ENOSYS,
	(struct fid *fid, int command, void *arg))
UET_NO(int, uet_no_ops_open, -FI_ENOSYS,
	(struct fid *fid, const char *name, uint64_t flags, void **ops,
	 void *context))
UET_NO(int, uet_no_tostr, -FI_ENOSYS,
	(const struct fid *fid, char *buf, size_t len))
UET_NO(int, uet_no_ops_set, -FI_ENOSYS,
	(struct fid *fid, const char *name, uint64_t flags, void *ops,
	 void *context))

/* ---- struct fi_ops_fabric ---- */
UET_NO(int, uet_no_passive_ep, -FI_ENOSYS,
	(struct fid_fabric *fabric, struct fi_info *info, struct fid_pep **pep,
	 void *context))
UET_NO(int, uet_no_eq_open, -FI_ENOSYS,
	(struct fid_fabric *fabric, struct fi_eq_attr *attr,
	 struct fid_eq **eq, void *context))
UET_NO(int, uet_no_wait_open, -FI_ENOSYS,
	(struct fid_fabric *fabric, struct fi_wait_attr *attr,
	 struct fid_wait **waitset))
UET_NO(int, uet_no_trywait, -FI_ENOSYS,
	(struct fid_fabric *fabric, struct fid **fids, int count))
UET_NO(int, uet_no_domain2, -FI_ENOSYS,
	(struct fid_fabric *fabric, struct fi_info *info,
	 struct fid_domain **dom, uint64_t flags, void *context))

/* ---- struct fi_ops_domain ---- */
UET_NO(int, uet_no_av_open, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_av_attr *attr,
	 struct fid_av **av, void *context))
UET_NO(int, uet_no_cq_open, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_cq_attr *attr,
	 struct fid_cq **cq, void *context))
UET_NO(int, uet_no_endpoint, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
	 void *context))
UET_NO(int, uet_no_scalable_ep, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_info *info, struct fid_ep **sep,
	 void *context))
UET_NO(int, uet_no_cntr_open, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_cntr_attr *attr,
	 struct fid_cntr **cntr, void *context))
UET_NO(int, uet_no_poll_open, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_poll_attr *attr,
	 struct fid_poll **pollset))
UET_NO(int, uet_no_stx_ctx, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_tx_attr *attr,
	 struct fid_stx **stx, void *context))
UET_NO(int, uet_no_srx_ctx, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_rx_attr *attr,
	 struct fid_ep **rx_ep, void *context))
UET_NO(int, uet_no_query_atomic, -FI_EOPNOTSUPP,
	(struct fid_domain *domain, enum fi_datatype datatype, enum fi_op op,
	 struct fi_atomic_attr *attr, uint64_t flags))
UET_NO(int, uet_no_query_collective, -FI_EOPNOTSUPP,
	(struct fid_domain *domain, enum fi_collective_op coll,
	 struct fi_collective_attr *attr, uint64_t flags))
UET_NO(int, uet_no_endpoint2, -FI_ENOSYS,
	(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep,
	 uint64_t flags, void *context))

/* ---- struct fi_ops_mr ---- */
UET_NO(int, uet_no_mr_reg, -FI_ENOSYS,
	(struct fid *fid, const void *buf, size_t len, uint64_t access,
	 uint64_t offset, uint64_t requested_key, uint64_t flags,
	 struct fid_mr **mr, void *context))
UET_NO(int, uet_no_mr_regv, -FI_ENOSYS,
	(struct fid *fid, const struct iovec *iov, size_t count,
	 uint64_t access, uint64_t offset, uint64_t requested_key,
	 uint64_t flags, struct fid_mr **mr, void *context))
UET_NO(int, uet_no_mr_regattr, -FI_ENOSYS,
	(struct fid *fid, const struct fi_mr_attr *attr, uint64_t flags,
	 struct fid_mr **mr))

/* ---- struct fi_ops_av ---- */
UET_NO(int, uet_no_av_insert, -FI_ENOSYS,
	(struct fid_av *av, const void *addr, size_t count, fi_addr_t *fi_addr,
	 uint64_t flags, void *context))
UET_NO(int, uet_no_av_insertsvc, -FI_ENOSYS,
	(struct fid_av *av, const char *node, const char *service,
	 fi_addr_t *fi_addr, uint64_t flags, void *context))
UET_NO(int, uet_no_av_insertsym, -FI_ENOSYS,
	(struct fid_av *av, const char *node, size_t nodecnt,
	 const char *service, size_t svccnt, fi_addr_t *fi_addr,
	 uint64_t flags, void *context))
UET_NO(int, uet_no_av_remove, -FI_ENOSYS,
	(struct fid_av *av, fi_addr_t *fi_addr, size_t count, uint64_t flags))
UET_NO(int, uet_no_av_lookup, -FI_ENOSYS,
	(struct fid_av *av, fi_addr_t fi_addr, void *addr, size_t *addrlen))
UET_NO(const char *, uet_no_av_straddr, "unknown",
	(struct fid_av *av, const void *addr, char *buf, size_t *len))
UET_NO(int, uet_no_av_set, -FI_ENOSYS,
	(struct fid_av *av, struct fi_av_set_attr *attr,
	 struct fid_av_set **av_set, void *context))
#if UET_FI_VERSION_GE(1, 20)
UET_NO(int, uet_no_av_insert_auth_key, -FI_ENOSYS,
	(struct fid_av *av, const void *auth_key, size_t auth_key_size,
	 fi_addr_t *fi_addr, uint64_t flags))
UET_NO(int, uet_no_av_lookup_auth_key, -FI_ENOSYS,
	(struct fid_av *av, fi_addr_t fi_addr, void *auth_key,
	 size_t *auth_key_size))
UET_NO(int, uet_no_av_set_user_id, -FI_ENOSYS,
	(struct fid_av *av, fi_addr_t fi_addr, fi_addr_t user_id,
	 uint64_t flags))
#endif
/* ---- struct fi_ops_ep ---- */
UET_NO(ssize_t, uet_no_cancel, -FI_ENOSYS,
	(fid_t fid, void *context))
UET_NO(int, uet_no_getopt, -FI_ENOPROTOOPT,
	(fid_t fid, int level, int optname, void *optval, size_t *optlen))
UET_NO(int, uet_no_setopt, -FI_ENOPROTOOPT,
	(fid_t fid, int level, int optname, const void *optval, size_t optlen))
UET_NO(int, uet_no_tx_ctx, -FI_ENOSYS,
	(struct fid_ep *sep, int index, struct fi_tx_attr *attr,
	 struct fid_ep **tx_ep, void *context))
UET_NO(int, uet_no_rx_ctx, -FI_ENOSYS,
	(struct fid_ep *sep, int index, struct fi_rx_attr *attr,
	 struct fid_ep **rx_ep, void *context))
UET_NO(ssize_t, uet_no_rx_size_left, -FI_ENOSYS,
	(struct fid_ep *ep))
UET_NO(ssize_t, uet_no_tx_size_left, -FI_ENOSYS,
	(struct fid_ep *ep))

/* ---- struct fi_ops_cm ---- */
UET_NO(int, uet_no_setname, -FI_ENOSYS,
	(fid_t fid, void *addr, size_t addrlen))
UET_NO(int, uet_no_getname, -FI_ENOSYS,
	(fid_t fid, void *addr, size_t *addrlen))
UET_NO(int, uet_no_getpeer, -FI_ENOSYS,
	(struct fid_ep *ep, void *addr, size_t *addrlen))
UET_NO(int, uet_no_connect, -FI_ENOSYS,
	(struct fid_ep *ep, const void *addr, const void *param,
	 size_t paramlen))
UET_NO(int, uet_no_listen, -FI_ENOSYS,
	(struct fid_pep *pep))
UET_NO(int, uet_no_accept, -FI_ENOSYS,
	(struct fid_ep *ep, const void *param, size_t paramlen))
UET_NO(int, uet_no_reject, -FI_ENOSYS,
	(struct fid_pep *pep, fid_t handle, const void *param,
	 size_t paramlen))
UET_NO(int, uet_no_shutdown, -FI_ENOSYS,
	(struct fid_ep *ep, uint64_t flags))
UET_NO(int, uet_no_join, -FI_ENOSYS,
	(struct fid_ep *ep, const void *addr, uint64_t flags,
	 struct fid_mc **mc, void *context))

/* ---- struct fi_ops_msg ---- */
UET_NO(ssize_t, uet_no_msg_recv, -FI_ENOSYS,
	(struct fid_ep *ep, void *buf, size_t len, void *desc,
	 fi_addr_t src_addr, void *context))
UET_NO(ssize_t, uet_no_msg_recvv, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t src_addr, void *context))
UET_NO(ssize_t, uet_no_msg_recvmsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_msg_send, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 fi_addr_t dest_addr, void *context))
UET_NO(ssize_t, uet_no_msg_sendv, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t dest_addr, void *context))
UET_NO(ssize_t, uet_no_msg_sendmsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_msg_inject, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest_addr))
UET_NO(ssize_t, uet_no_msg_senddata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 uint64_t data, fi_addr_t dest_addr, void *context))
UET_NO(ssize_t, uet_no_msg_injectdata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	 fi_addr_t dest_addr))

/* ---- struct fi_ops_tagged ---- */
UET_NO(ssize_t, uet_no_tagged_recv, -FI_ENOSYS,
	(struct fid_ep *ep, void *buf, size_t len, void *desc,
	 fi_addr_t src_addr, uint64_t tag, uint64_t ignore, void *context))
UET_NO(ssize_t, uet_no_tagged_recvv, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t src_addr, uint64_t tag, uint64_t ignore, void *context))
UET_NO(ssize_t, uet_no_tagged_recvmsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_tagged *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_tagged_send, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 fi_addr_t dest_addr, uint64_t tag, void *context))
UET_NO(ssize_t, uet_no_tagged_sendv, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t dest_addr, uint64_t tag, void *context))
UET_NO(ssize_t, uet_no_tagged_sendmsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_tagged *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_tagged_inject, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest_addr,
	 uint64_t tag))
UET_NO(ssize_t, uet_no_tagged_senddata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 uint64_t data, fi_addr_t dest_addr, uint64_t tag, void *context))
UET_NO(ssize_t, uet_no_tagged_injectdata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	 fi_addr_t dest_addr, uint64_t tag))

/* ---- struct fi_ops_rma ---- */
UET_NO(ssize_t, uet_no_rma_read, -FI_ENOSYS,
	(struct fid_ep *ep, void *buf, size_t len, void *desc,
	 fi_addr_t src_addr, uint64_t addr, uint64_t key, void *context))
UET_NO(ssize_t, uet_no_rma_readv, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t src_addr, uint64_t addr, uint64_t key, void *context))
UET_NO(ssize_t, uet_no_rma_readmsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_rma_write, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 fi_addr_t dest_addr, uint64_t addr, uint64_t key, void *context))
UET_NO(ssize_t, uet_no_rma_writev, -FI_ENOSYS,
	(struct fid_ep *ep, const struct iovec *iov, void **desc, size_t count,
	 fi_addr_t dest_addr, uint64_t addr, uint64_t key, void *context))
UET_NO(ssize_t, uet_no_rma_writemsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_rma *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_rma_inject, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, fi_addr_t dest_addr,
	 uint64_t addr, uint64_t key))
UET_NO(ssize_t, uet_no_rma_writedata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, void *desc,
	 uint64_t data, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 void *context))
UET_NO(ssize_t, uet_no_rma_injectdata, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t len, uint64_t data,
	 fi_addr_t dest_addr, uint64_t addr, uint64_t key))

/* ---- struct fi_ops_atomic ---- */
UET_NO(ssize_t, uet_no_atomic_write, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t count, void *desc,
	 fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 enum fi_datatype datatype, enum fi_op op, void *context))
UET_NO(ssize_t, uet_no_atomic_writev, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	 size_t count, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 enum fi_datatype datatype, enum fi_op op, void *context))
UET_NO(ssize_t, uet_no_atomic_writemsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_atomic *msg, uint64_t flags))
UET_NO(ssize_t, uet_no_atomic_inject, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t count, fi_addr_t dest_addr,
	 uint64_t addr, uint64_t key, enum fi_datatype datatype,
	 enum fi_op op))
UET_NO(ssize_t, uet_no_atomic_readwrite, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t count, void *desc,
	 void *result, void *result_desc, fi_addr_t dest_addr, uint64_t addr,
	 uint64_t key, enum fi_datatype datatype, enum fi_op op,
	 void *context))
UET_NO(ssize_t, uet_no_atomic_readwritev, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	 size_t count, struct fi_ioc *resultv, void **result_desc,
	 size_t result_count, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 enum fi_datatype datatype, enum fi_op op, void *context))
UET_NO(ssize_t, uet_no_atomic_readwritemsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_atomic *msg,
	 struct fi_ioc *resultv, void **result_desc, size_t result_count,
	 uint64_t flags))
UET_NO(ssize_t, uet_no_atomic_compwrite, -FI_ENOSYS,
	(struct fid_ep *ep, const void *buf, size_t count, void *desc,
	 const void *compare, void *compare_desc, void *result,
	 void *result_desc, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 enum fi_datatype datatype, enum fi_op op, void *context))
UET_NO(ssize_t, uet_no_atomic_compwritev, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_ioc *iov, void **desc,
	 size_t count, const struct fi_ioc *comparev, void **compare_desc,
	 size_t compare_count, struct fi_ioc *resultv, void **result_desc,
	 size_t result_count, fi_addr_t dest_addr, uint64_t addr, uint64_t key,
	 enum fi_datatype datatype, enum fi_op op, void *context))
UET_NO(ssize_t, uet_no_atomic_compwritemsg, -FI_ENOSYS,
	(struct fid_ep *ep, const struct fi_msg_atomic *msg,
	 const struct fi_ioc *comparev, void **compare_desc,
	 size_t compare_count, struct fi_ioc *resultv, void **result_desc,
	 size_t result_count, uint64_t flags))
UET_NO(int, uet_no_atomic_writevalid, -FI_EOPNOTSUPP,
	(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	 size_t *count))
UET_NO(int, uet_no_atomic_readwritevalid, -FI_EOPNOTSUPP,
	(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	 size_t *count))
UET_NO(int, uet_no_atomic_compwritevalid, -FI_EOPNOTSUPP,
	(struct fid_ep *ep, enum fi_datatype datatype, enum fi_op op,
	 size_t *count))

/* ---- struct fi_ops_cq ---- */
UET_NO(ssize_t, uet_no_cq_read, -FI_ENOSYS,
	(struct fid_cq *cq, void *buf, size_t count))
UET_NO(ssize_t, uet_no_cq_readfrom, -FI_ENOSYS,
	(struct fid_cq *cq, void *buf, size_t count, fi_addr_t *src_addr))
UET_NO(ssize_t, uet_no_cq_readerr, -FI_ENOSYS,
	(struct fid_cq *cq, struct fi_cq_err_entry *buf, uint64_t flags))
UET_NO(ssize_t, uet_no_cq_sread, -FI_ENOSYS,
	(struct fid_cq *cq, void *buf, size_t count, const void *cond,
	 int timeout))
UET_NO(ssize_t, uet_no_cq_sreadfrom, -FI_ENOSYS,
	(struct fid_cq *cq, void *buf, size_t count, fi_addr_t *src_addr,
	 const void *cond, int timeout))
UET_NO(int, uet_no_cq_signal, -FI_ENOSYS,
	(struct fid_cq *cq))
UET_NO(const char *, uet_no_cq_strerror, "unknown",
	(struct fid_cq *cq, int prov_errno, const void *err_data, char *buf,
	 size_t len))

/* ---- struct fi_ops_cntr ---- */
UET_NO(uint64_t, uet_no_cntr_read, 0,
	(struct fid_cntr *cntr))
UET_NO(uint64_t, uet_no_cntr_readerr, 0,
	(struct fid_cntr *cntr))
UET_NO(int, uet_no_cntr_add, -FI_ENOSYS,
	(struct fid_cntr *cntr, uint64_t value))
UET_NO(int, uet_no_cntr_set, -FI_ENOSYS,
	(struct fid_cntr *cntr, uint64_t value))
UET_NO(int, uet_no_cntr_wait, -FI_ENOSYS,
	(struct fid_cntr *cntr, uint64_t threshold, int timeout))
UET_NO(int, uet_no_cntr_adderr, -FI_ENOSYS,
	(struct fid_cntr *cntr, uint64_t value))
UET_NO(int, uet_no_cntr_seterr, -FI_ENOSYS,
	(struct fid_cntr *cntr, uint64_t value))

/* ---- struct fi_ops_eq ---- */
UET_NO(ssize_t, uet_no_eq_read, -FI_ENOSYS,
	(struct fid_eq *eq, uint32_t *event, void *buf, size_t len,
	 uint64_t flags))
UET_NO(ssize_t, uet_no_eq_readerr, -FI_ENOSYS,
	(struct fid_eq *eq, struct fi_eq_err_entry *buf, uint64_t flags))
UET_NO(ssize_t, uet_no_eq_write, -FI_ENOSYS,
	(struct fid_eq *eq, uint32_t event, const void *buf, size_t len,
	 uint64_t flags))
UET_NO(ssize_t, uet_no_eq_sread, -FI_ENOSYS,
	(struct fid_eq *eq, uint32_t *event, void *buf, size_t len,
	 int timeout, uint64_t flags))
UET_NO(const char *, uet_no_eq_strerror, "unknown",
	(struct fid_eq *eq, int prov_errno, const void *err_data, char *buf,
	 size_t len))

/* ---- struct fi_ops_wait / fi_ops_poll ---- */
UET_NO(int, uet_no_wait, -FI_ENOSYS,
	(struct fid_wait *waitset, int timeout))
UET_NO(int, uet_no_poll, -FI_ENOSYS,
	(struct fid_poll *pollset, void **context, int count))
UET_NO(int, uet_no_poll_add, -FI_ENOSYS,
	(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags))
UET_NO(int, uet_no_poll_del, -FI_ENOSYS,
	(struct fid_poll *pollset, struct fid *event_fid, uint64_t flags))
