/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "Not supported" implementations of libfabric ops-table slots, with the
 * exact signatures of the slots, so that provider ops tables fill every
 * slot they do not implement:
 *
 *	static struct fi_ops_rma uet_rma_ops = {
 *		.size = sizeof(struct fi_ops_rma),
 *		.read = uet_rma_read,
 *		.readv = uet_no_rma_readv,
 *		...
 *	};
 *
 * Return values follow libfabric's conventions:
 *   - operations return -FI_ENOSYS;
 *   - getopt/setopt return -FI_ENOPROTOOPT, which fi_endpoint(3) names
 *     as the answer for an option the provider does not support and
 *     which applications test for;
 *   - the "is this supported?" queries (atomic writevalid /
 *     readwritevalid / compwritevalid, domain query_atomic and
 *     query_collective) return -FI_EOPNOTSUPP, the error fi_atomic(3)
 *     and fi_collective(3) document for an unsupported operation;
 *   - strerror/straddr return the string "unknown";
 *   - cntr read/readerr (which return a count) return 0.
 *
 * Written for libfabric 1.17 through 2.x.  Slots that exist only in
 * newer headers are declared only when the headers have them.
 */
#ifndef UET_FI_NO_H
#define UET_FI_NO_H

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

/* True when the libfabric headers are at least major.minor. */
#define UET_FI_VERSION_GE(major, minor)					\
	(FI_MAJOR_VERSION > (major) ||					\
	 (FI_MAJOR_VERSION == (major) && FI_MINOR_VERSION >= (minor)))

/* ---- struct fi_ops (every fid) ---- */
int uet_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int uet_no_control(struct fid *fid, int command, void *arg);
int uet_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		    void **ops, void *context);
int uet_no_tostr(const struct fid *fid, char *buf, size_t len);
int uet_no_ops_set(struct fid *fid, const char *name, uint64_t flags,
		   void *ops, void *context);

/* ---- struct fi_ops_fabric ---- */
int uet_no_passive_ep(struct fid_fabric *fabric, struct fi_info *info,
		      struct fid_pep **pep, void *context);
int uet_no_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		   struct fid_eq **eq, void *context);
int uet_no_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		     struct fid_wait **waitset);
int uet_no_trywait(struct fid_fabric *fabric, struct fid **fids, int count);
int uet_no_domain2(struct fid_fabric *fabric, struct fi_info *info,
		   struct fid_domain **dom, uint64_t flags, void *context);

/* ---- struct fi_ops_domain ---- */
int uet_no_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		   struct fid_av **av, void *context);
int uet_no_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		   struct fid_cq **cq, void *context);
int uet_no_endpoint(struct fid_domain *domain, struct fi_info *info,
		    struct fid_ep **ep, void *context);
int uet_no_scalable_ep(struct fid_domain *domain, struct fi_info *info,
		       struct fid_ep **sep, void *context);
int uet_no_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		     struct fid_cntr **cntr, void *context);
int uet_no_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
		     struct fid_poll **pollset);
int uet_no_stx_ctx(struct fid_domain *domain, struct fi_tx_attr *attr,
		   struct fid_stx **stx, void *context);
int uet_no_srx_ctx(struct fid_domain *domain, struct fi_rx_attr *attr,
		   struct fid_ep **rx_ep, void *context);
int uet_no_query_atomic(struct fid_domain *domain, enum fi_datatype datatype,
			enum fi_op op, struct fi_atomic_attr *attr,
			uint64_t flags);
int uet_no_query_collective(struct fid_domain *domain,
			    enum fi_collective_op coll,
			    struct fi_collective_attr *attr, uint64_t flags);
int uet_no_endpoint2(struct fid_domain *domain, struct fi_info *info,
		     struct fid_ep **ep, uint64_t flags, void *context);

/* ---- struct fi_ops_mr ---- */
int uet_no_mr_reg(struct fid *fid, const void *buf, size_t len,
		  uint64_t access, uint64_t offset, uint64_t requested_key,
		  uint64_t flags, struct fid_mr **mr, void *context);
int uet_no_mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
		   uint64_t access, uint64_t offset, uint64_t requested_key,
		   uint64_t flags, struct fid_mr **mr, void *context);
int uet_no_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
		      uint64_t flags, struct fid_mr **mr);

/* ---- struct fi_ops_av ---- */
int uet_no_av_insert(struct fid_av *av, const void *addr, size_t count,
		     fi_addr_t *fi_addr, uint64_t flags, void *context);
int uet_no_av_insertsvc(struct fid_av *av, const char *node,
			const char *service, fi_addr_t *fi_addr,
			uint64_t flags, void *context);
int uet_no_av_insertsym(struct fid_av *av, const char *node, size_t nodecnt,
			const char *service, size_t svccnt,
			fi_addr_t *fi_addr, uint64_t flags, void *context);
int uet_no_av_remove(struct fid_av *av, fi_addr_t *fi_addr, size_t count,
		     uint64_t flags);
int uet_no_av_lookup(struct fid_av *av, fi_addr_t fi_addr, void *addr,
		     size_t *addrlen);
const char *uet_no_av_straddr(struct fid_av *av, const void *addr, char *buf,
			      size_t *len);
int uet_no_av_set(struct fid_av *av, struct fi_av_set_attr *attr,
		  struct fid_av_set **av_set, void *context);
#if UET_FI_VERSION_GE(1, 20)
int uet_no_av_insert_auth_key(struct fid_av *av, const void *auth_key,
			      size_t auth_key_size, fi_addr_t *fi_addr,
			      uint64_t flags);
int uet_no_av_lookup_auth_key(struct fid_av *av, fi_addr_t fi_addr,
			      void *auth_key, size_t *auth_key_size);
int uet_no_av_set_user_id(struct fid_av *av, fi_addr_t fi_addr,
			  fi_addr_t user_id, uint64_t flags);
#endif

/* ---- struct fi_ops_ep ---- */
ssize_t uet_no_cancel(fid_t fid, void *context);
int uet_no_getopt(fid_t fid, int level, int optname, void *optval,
		  size_t *optlen);
int uet_no_setopt(fid_t fid, int level, int optname, const void *optval,
		  size_t optlen);
int uet_no_tx_ctx(struct fid_ep *sep, int index, struct fi_tx_attr *attr,
		  struct fid_ep **tx_ep, void *context);
int uet_no_rx_ctx(struct fid_ep *sep, int index, struct fi_rx_attr *attr,
		  struct fid_ep **rx_ep, void *context);
ssize_t uet_no_rx_size_left(struct fid_ep *ep);
ssize_t uet_no_tx_size_left(struct fid_ep *ep);

/* ---- struct fi_ops_cm ---- */
int uet_no_setname(fid_t fid, void *addr, size_t addrlen);
int uet_no_getname(fid_t fid, void *addr, size_t *addrlen);
int uet_no_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen);
int uet_no_connect(struct fid_ep *ep, const void *addr, const void *param,
		   size_t paramlen);
int uet_no_listen(struct fid_pep *pep);
int uet_no_accept(struct fid_ep *ep, const void *param, size_t paramlen);
int uet_no_reject(struct fid_pep *pep, fid_t handle, const void *param,
		  size_t paramlen);
int uet_no_shutdown(struct fid_ep *ep, uint64_t flags);
int uet_no_join(struct fid_ep *ep, const void *addr, uint64_t flags,
		struct fid_mc **mc, void *context);

/* ---- struct fi_ops_msg ---- */
ssize_t uet_no_msg_recv(struct fid_ep *ep, void *buf, size_t len, void *desc,
			fi_addr_t src_addr, void *context);
ssize_t uet_no_msg_recvv(struct fid_ep *ep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src_addr,
			 void *context);
ssize_t uet_no_msg_recvmsg(struct fid_ep *ep, const struct fi_msg *msg,
			   uint64_t flags);
ssize_t uet_no_msg_send(struct fid_ep *ep, const void *buf, size_t len,
			void *desc, fi_addr_t dest_addr, void *context);
ssize_t uet_no_msg_sendv(struct fid_ep *ep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t dest_addr,
			 void *context);
ssize_t uet_no_msg_sendmsg(struct fid_ep *ep, const struct fi_msg *msg,
			   uint64_t flags);
ssize_t uet_no_msg_inject(struct fid_ep *ep, const void *buf, size_t len,
			  fi_addr_t dest_addr);
ssize_t uet_no_msg_senddata(struct fid_ep *ep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest_addr,
			    void *context);
ssize_t uet_no_msg_injectdata(struct fid_ep *ep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest_addr);

/* ---- struct fi_ops_tagged ---- */
ssize_t uet_no_tagged_recv(struct fid_ep *ep, void *buf, size_t len,
			   void *desc, fi_addr_t src_addr, uint64_t tag,
			   uint64_t ignore, void *context);
ssize_t uet_no_tagged_recvv(struct fid_ep *ep, const struct iovec *iov,
			    void **desc, size_t count, fi_addr_t src_addr,
			    uint64_t tag, uint64_t ignore, void *context);
ssize_t uet_no_tagged_recvmsg(struct fid_ep *ep,
			      const struct fi_msg_tagged *msg,
			      uint64_t flags);
ssize_t uet_no_tagged_send(struct fid_ep *ep, const void *buf, size_t len,
			   void *desc, fi_addr_t dest_addr, uint64_t tag,
			   void *context);
ssize_t uet_no_tagged_sendv(struct fid_ep *ep, const struct iovec *iov,
			    void **desc, size_t count, fi_addr_t dest_addr,
			    uint64_t tag, void *context);
ssize_t uet_no_tagged_sendmsg(struct fid_ep *ep,
			      const struct fi_msg_tagged *msg,
			      uint64_t flags);
ssize_t uet_no_tagged_inject(struct fid_ep *ep, const void *buf, size_t len,
			     fi_addr_t dest_addr, uint64_t tag);
ssize_t uet_no_tagged_senddata(struct fid_ep *ep, const void *buf, size_t len,
			       void *desc, uint64_t data, fi_addr_t dest_addr,
			       uint64_t tag, void *context);
ssize_t uet_no_tagged_injectdata(struct fid_ep *ep, const void *buf,
				 size_t len, uint64_t data,
				 fi_addr_t dest_addr, uint64_t tag);

/* ---- struct fi_ops_rma ---- */
ssize_t uet_no_rma_read(struct fid_ep *ep, void *buf, size_t len, void *desc,
			fi_addr_t src_addr, uint64_t addr, uint64_t key,
			void *context);
ssize_t uet_no_rma_readv(struct fid_ep *ep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src_addr,
			 uint64_t addr, uint64_t key, void *context);
ssize_t uet_no_rma_readmsg(struct fid_ep *ep, const struct fi_msg_rma *msg,
			   uint64_t flags);
ssize_t uet_no_rma_write(struct fid_ep *ep, const void *buf, size_t len,
			 void *desc, fi_addr_t dest_addr, uint64_t addr,
			 uint64_t key, void *context);
ssize_t uet_no_rma_writev(struct fid_ep *ep, const struct iovec *iov,
			  void **desc, size_t count, fi_addr_t dest_addr,
			  uint64_t addr, uint64_t key, void *context);
ssize_t uet_no_rma_writemsg(struct fid_ep *ep, const struct fi_msg_rma *msg,
			    uint64_t flags);
ssize_t uet_no_rma_inject(struct fid_ep *ep, const void *buf, size_t len,
			  fi_addr_t dest_addr, uint64_t addr, uint64_t key);
ssize_t uet_no_rma_writedata(struct fid_ep *ep, const void *buf, size_t len,
			     void *desc, uint64_t data, fi_addr_t dest_addr,
			     uint64_t addr, uint64_t key, void *context);
ssize_t uet_no_rma_injectdata(struct fid_ep *ep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest_addr,
			      uint64_t addr, uint64_t key);

/* ---- struct fi_ops_atomic ---- */
ssize_t uet_no_atomic_write(struct fid_ep *ep, const void *buf, size_t count,
			    void *desc, fi_addr_t dest_addr, uint64_t addr,
			    uint64_t key, enum fi_datatype datatype,
			    enum fi_op op, void *context);
ssize_t uet_no_atomic_writev(struct fid_ep *ep, const struct fi_ioc *iov,
			     void **desc, size_t count, fi_addr_t dest_addr,
			     uint64_t addr, uint64_t key,
			     enum fi_datatype datatype, enum fi_op op,
			     void *context);
ssize_t uet_no_atomic_writemsg(struct fid_ep *ep,
			       const struct fi_msg_atomic *msg,
			       uint64_t flags);
ssize_t uet_no_atomic_inject(struct fid_ep *ep, const void *buf, size_t count,
			     fi_addr_t dest_addr, uint64_t addr, uint64_t key,
			     enum fi_datatype datatype, enum fi_op op);
ssize_t uet_no_atomic_readwrite(struct fid_ep *ep, const void *buf,
				size_t count, void *desc, void *result,
				void *result_desc, fi_addr_t dest_addr,
				uint64_t addr, uint64_t key,
				enum fi_datatype datatype, enum fi_op op,
				void *context);
ssize_t uet_no_atomic_readwritev(struct fid_ep *ep, const struct fi_ioc *iov,
				 void **desc, size_t count,
				 struct fi_ioc *resultv, void **result_desc,
				 size_t result_count, fi_addr_t dest_addr,
				 uint64_t addr, uint64_t key,
				 enum fi_datatype datatype, enum fi_op op,
				 void *context);
ssize_t uet_no_atomic_readwritemsg(struct fid_ep *ep,
				   const struct fi_msg_atomic *msg,
				   struct fi_ioc *resultv, void **result_desc,
				   size_t result_count, uint64_t flags);
ssize_t uet_no_atomic_compwrite(struct fid_ep *ep, const void *buf,
				size_t count, void *desc, const void *compare,
				void *compare_desc, void *result,
				void *result_desc, fi_addr_t dest_addr,
				uint64_t addr, uint64_t key,
				enum fi_datatype datatype, enum fi_op op,
				void *context);
ssize_t uet_no_atomic_compwritev(struct fid_ep *ep, const struct fi_ioc *iov,
				 void **desc, size_t count,
				 const struct fi_ioc *comparev,
				 void **compare_desc, size_t compare_count,
				 struct fi_ioc *resultv, void **result_desc,
				 size_t result_count, fi_addr_t dest_addr,
				 uint64_t addr, uint64_t key,
				 enum fi_datatype datatype, enum fi_op op,
				 void *context);
ssize_t uet_no_atomic_compwritemsg(struct fid_ep *ep,
				   const struct fi_msg_atomic *msg,
				   const struct fi_ioc *comparev,
				   void **compare_desc, size_t compare_count,
				   struct fi_ioc *resultv, void **result_desc,
				   size_t result_count, uint64_t flags);
int uet_no_atomic_writevalid(struct fid_ep *ep, enum fi_datatype datatype,
			     enum fi_op op, size_t *count);
int uet_no_atomic_readwritevalid(struct fid_ep *ep, enum fi_datatype datatype,
				 enum fi_op op, size_t *count);
int uet_no_atomic_compwritevalid(struct fid_ep *ep, enum fi_datatype datatype,
				 enum fi_op op, size_t *count);

/* ---- struct fi_ops_cq ---- */
ssize_t uet_no_cq_read(struct fid_cq *cq, void *buf, size_t count);
ssize_t uet_no_cq_readfrom(struct fid_cq *cq, void *buf, size_t count,
			   fi_addr_t *src_addr);
ssize_t uet_no_cq_readerr(struct fid_cq *cq, struct fi_cq_err_entry *buf,
			  uint64_t flags);
ssize_t uet_no_cq_sread(struct fid_cq *cq, void *buf, size_t count,
			const void *cond, int timeout);
ssize_t uet_no_cq_sreadfrom(struct fid_cq *cq, void *buf, size_t count,
			    fi_addr_t *src_addr, const void *cond,
			    int timeout);
int uet_no_cq_signal(struct fid_cq *cq);
const char *uet_no_cq_strerror(struct fid_cq *cq, int prov_errno,
			       const void *err_data, char *buf, size_t len);

/* ---- struct fi_ops_cntr ---- */
uint64_t uet_no_cntr_read(struct fid_cntr *cntr);
uint64_t uet_no_cntr_readerr(struct fid_cntr *cntr);
int uet_no_cntr_add(struct fid_cntr *cntr, uint64_t value);
int uet_no_cntr_set(struct fid_cntr *cntr, uint64_t value);
int uet_no_cntr_wait(struct fid_cntr *cntr, uint64_t threshold, int timeout);
int uet_no_cntr_adderr(struct fid_cntr *cntr, uint64_t value);
int uet_no_cntr_seterr(struct fid_cntr *cntr, uint64_t value);

/* ---- struct fi_ops_eq ---- */
ssize_t uet_no_eq_read(struct fid_eq *eq, uint32_t *event, void *buf,
		       size_t len, uint64_t flags);
ssize_t uet_no_eq_readerr(struct fid_eq *eq, struct fi_eq_err_entry *buf,
			  uint64_t flags);
ssize_t uet_no_eq_write(struct fid_eq *eq, uint32_t event, const void *buf,
			size_t len, uint64_t flags);
ssize_t uet_no_eq_sread(struct fid_eq *eq, uint32_t *event, void *buf,
			size_t len, int timeout, uint64_t flags);
const char *uet_no_eq_strerror(struct fid_eq *eq, int prov_errno,
			       const void *err_data, char *buf, size_t len);

/* ---- struct fi_ops_wait / fi_ops_poll ---- */
int uet_no_wait(struct fid_wait *waitset, int timeout);
int uet_no_poll(struct fid_poll *pollset, void **context, int count);
int uet_no_poll_add(struct fid_poll *pollset, struct fid *event_fid,
		    uint64_t flags);
int uet_no_poll_del(struct fid_poll *pollset, struct fid *event_fid,
		    uint64_t flags);

#endif /* UET_FI_NO_H */
