// SPDX-License-Identifier: GPL-2.0
/*
 * aiecn_nl: rtnetlink for aiecnd over a raw NETLINK_ROUTE socket, no libmnl.
 *
 * The kernel lays attributes out 4-byte aligned; a u64 payload is 8-byte
 * aligned only through the PAD attributes it inserts, and QHIST not at
 * all, so every payload is read with memcpy().
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "aiecn_nl.h"

#if AIECN_HIST_BUCKETS != TC_LOSSLESS_QHIST_BUCKETS
#error "the core's histogram must be the kernel's"
#endif

#ifndef SOL_NETLINK
#define SOL_NETLINK	270
#endif

/* The tcmsg of tc messages starts right after the netlink header */
#define TC_HDR_SPACE	NLMSG_SPACE(sizeof(struct tcmsg))

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

void aiecn_nl_ecn_from_thresholds(const struct aiecn_thresholds *t, struct aiecn_nl_ecn *e)
{
	uint32_t pmax = t->pmax > 100 ? 100 : t->pmax;

	e->enabled = 1;
	e->kmin = t->kmin;
	e->kmax = t->kmax;
	e->pmax = pmax * AIECN_NL_PPM_PER_PERCENT;
}

void aiecn_nl_ecn_to_thresholds(const struct aiecn_nl_ecn *e, struct aiecn_thresholds *t)
{
	uint32_t pct = (e->pmax + AIECN_NL_PPM_PER_PERCENT / 2) / AIECN_NL_PPM_PER_PERCENT;

	t->kmin = e->kmin;
	t->kmax = e->kmax;
	t->pmax = pct < 1 ? 1 : pct > 100 ? 100 : pct;
}

/* Building: a message grows in a caller's buffer; overflow is sticky */
struct builder {
	uint8_t *buf;
	size_t len, off;
	int overflow;
};

/* @n bytes, zeroed, at the next 4-byte boundary; NULL once out of room */
static void *grow(struct builder *b, size_t n)
{
	size_t start = NLMSG_ALIGN(b->off);
	void *p;

	if (b->overflow || start > b->len || NLMSG_ALIGN(n) > b->len - start) {
		b->overflow = 1;
		return NULL;
	}
	p = b->buf + start;
	memset(p, 0, NLMSG_ALIGN(n));
	b->off = start + n;
	return p;
}

/* An attribute; its offset, for a nest's end */
static size_t put_attr(struct builder *b, uint16_t type, const void *data, size_t n)
{
	struct nlattr h = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };
	size_t at = NLMSG_ALIGN(b->off);
	uint8_t *p = grow(b, NLA_HDRLEN + n);

	if (!p)
		return 0;
	memcpy(p, &h, sizeof(h));
	if (n)
		memcpy(p + NLA_HDRLEN, data, n);
	return at;
}

static void put_u8(struct builder *b, uint16_t type, uint8_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

static void put_u32(struct builder *b, uint16_t type, uint32_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

static void nest_end(struct builder *b, size_t at)
{
	uint16_t n;

	if (b->overflow)
		return;
	n = (uint16_t)(b->off - at);
	memcpy(b->buf + at + offsetof(struct nlattr, nla_len), &n, sizeof(n));
}

static void tc_start(struct builder *b, uint16_t type, uint16_t flags, uint32_t seq,
		     int ifindex, uint32_t parent, uint32_t handle)
{
	struct nlmsghdr h = {
		.nlmsg_type = type,
		.nlmsg_flags = flags,
		.nlmsg_seq = seq,
	};
	struct tcmsg t = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_handle = handle,
		.tcm_parent = parent,
	};
	uint8_t *p = grow(b, TC_HDR_SPACE);

	if (!p)
		return;
	memcpy(p, &h, sizeof(h));
	memcpy(p + NLMSG_HDRLEN, &t, sizeof(t));
}

static int tc_finish(struct builder *b)
{
	uint32_t n = (uint32_t)NLMSG_ALIGN(b->off);

	if (b->overflow || n > b->len)
		return -ENOSPC;
	memcpy(b->buf + offsetof(struct nlmsghdr, nlmsg_len), &n, sizeof(n));
	return (int)n;
}

int aiecn_nl_build_qdisc_get(void *buf, size_t len, uint32_t seq, int ifindex)
{
	struct builder b = { .buf = buf, .len = len };

	/* Without NLM_F_ECHO the reply only goes to RTNLGRP_TC listeners */
	tc_start(&b, RTM_GETQDISC, NLM_F_REQUEST | NLM_F_ECHO | NLM_F_ACK, seq, ifindex,
		 TC_H_ROOT, 0);
	return tc_finish(&b);
}

int aiecn_nl_build_class_dump(void *buf, size_t len, uint32_t seq, int ifindex,
			      uint32_t parent)
{
	struct builder b = { .buf = buf, .len = len };

	/* tcm_parent: only the classes of that qdisc */
	tc_start(&b, RTM_GETTCLASS, NLM_F_REQUEST | NLM_F_DUMP, seq, ifindex, parent, 0);
	return tc_finish(&b);
}

int aiecn_nl_build_class_change(void *buf, size_t len, uint32_t seq, int ifindex,
				uint32_t parent, uint32_t classid,
				const struct aiecn_nl_ecn *ecn)
{
	struct builder b = { .buf = buf, .len = len };
	size_t opts;

	/* No NLM_F_CREATE: the class must exist, and it is changed */
	tc_start(&b, RTM_NEWTCLASS, NLM_F_REQUEST | NLM_F_ACK, seq, ifindex, parent, classid);
	put_attr(&b, TCA_KIND, AIECN_NL_KIND, sizeof(AIECN_NL_KIND));
	/* The kernel's nla_parse_nested() wants the flag */
	opts = put_attr(&b, TCA_OPTIONS | NLA_F_NESTED, NULL, 0);
	put_u8(&b, TCA_LOSSLESS_CLASS_ECN, ecn->enabled);
	put_u32(&b, TCA_LOSSLESS_CLASS_KMIN, ecn->kmin);
	put_u32(&b, TCA_LOSSLESS_CLASS_KMAX, ecn->kmax);
	put_u32(&b, TCA_LOSSLESS_CLASS_PMAX, ecn->pmax);
	nest_end(&b, opts);
	return tc_finish(&b);
}

/* Parsing */
struct attr {
	uint16_t type;		/* without the NLA_F_* flags */
	const uint8_t *data;
	size_t len;
};

/* A run of attributes */
struct attrs {
	const uint8_t *pos;
	size_t left;
};

static struct attrs nest_of(const struct attr *a)
{
	struct attrs r = { .pos = a->data, .left = a->len };

	return r;
}

/* 1: *a is the next attribute; 0: none left; -1: malformed */
static int next_attr(struct attrs *it, struct attr *a)
{
	struct nlattr h;
	size_t step;

	/* Fewer bytes than a header: padding at most */
	if (it->left < NLA_HDRLEN)
		return 0;
	memcpy(&h, it->pos, sizeof(h));
	if (h.nla_len < NLA_HDRLEN || h.nla_len > it->left)
		return -1;
	a->type = h.nla_type & NLA_TYPE_MASK;
	a->data = it->pos + NLA_HDRLEN;
	a->len = h.nla_len - NLA_HDRLEN;
	step = NLA_ALIGN(h.nla_len);
	if (step > it->left)
		step = it->left;
	it->pos += step;
	it->left -= step;
	return 1;
}

static int get_u8(const struct attr *a, uint8_t *v)
{
	if (a->len != sizeof(*v))
		return -1;
	*v = a->data[0];
	return 0;
}

static int get_u32(const struct attr *a, uint32_t *v)
{
	if (a->len != sizeof(*v))
		return -1;
	memcpy(v, a->data, sizeof(*v));
	return 0;
}

static int get_u64(const struct attr *a, uint64_t *v)
{
	if (a->len != sizeof(*v))
		return -1;
	memcpy(v, a->data, sizeof(*v));
	return 0;
}

/* The string of @a into @out (truncated); -1 if it has no NUL */
static int get_str(const struct attr *a, char *out, size_t outlen)
{
	size_t n = strnlen((const char *)a->data, a->len);

	if (n == a->len)
		return -1;
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, a->data, n);
	out[n] = '\0';
	return 0;
}

/*
 * The last attribute of @type among @it into *out, as a parser that keeps
 * the last of repeated attributes would: 1 if there is one, 0 if not, -1
 * if any attribute of @it is malformed (all are read)
 */
static int find_attr(struct attrs it, uint16_t type, struct attr *out)
{
	struct attr a;
	int r, found = 0;

	while ((r = next_attr(&it, &a)) > 0) {
		if (a.type == type) {
			*out = a;
			found = 1;
		}
	}
	return r < 0 ? -1 : found;
}

/* The header and tcmsg of a tc message of @type; its attributes in *it */
static int tc_open(const void *msg, size_t len, uint16_t type, struct tcmsg *tcm,
		   struct attrs *it, char *err, size_t errlen)
{
	struct nlmsghdr h;

	if (len < sizeof(h))
		return fail(err, errlen, -EPROTO, "message of %zu bytes: no header", len);
	memcpy(&h, msg, sizeof(h));
	if (h.nlmsg_len > len || h.nlmsg_len < NLMSG_LENGTH(sizeof(*tcm)))
		return fail(err, errlen, -EPROTO, "message length %u, %zu bytes there",
			    h.nlmsg_len, len);
	if (h.nlmsg_type != type)
		return fail(err, errlen, -EPROTO, "message type %u, expected %u",
			    h.nlmsg_type, type);
	memcpy(tcm, (const uint8_t *)msg + NLMSG_HDRLEN, sizeof(*tcm));
	it->pos = (const uint8_t *)msg + TC_HDR_SPACE;
	it->left = h.nlmsg_len > TC_HDR_SPACE ? h.nlmsg_len - TC_HDR_SPACE : 0;
	return 0;
}

/* TCA_KIND must say lossless: -ENOENT naming what it is, -EPROTO if bad */
static int check_kind(const struct attr *kind, const char *what, char *err, size_t errlen)
{
	char name[32];

	if (!kind)
		return fail(err, errlen, -EPROTO, "%s without TCA_KIND", what);
	if (get_str(kind, name, sizeof(name)))
		return fail(err, errlen, -EPROTO, "%s: TCA_KIND is not a string", what);
	if (strcmp(name, AIECN_NL_KIND))
		return fail(err, errlen, -ENOENT, "%s is %s, not %s", what, name, AIECN_NL_KIND);
	return 0;
}

#define STATS_NEEDED_TC		0x1
#define STATS_NEEDED_TX		0x2
#define STATS_NEEDED_QHIST	0x4
#define STATS_NEEDED_ALL	(STATS_NEEDED_TC | STATS_NEEDED_TX | STATS_NEEDED_QHIST)

/* An optional u64 counter of a class */
static int class_u64(const struct attr *a, uint64_t *v, uint32_t bit,
		     struct aiecn_nl_class_stats *cs)
{
	if (get_u64(a, v))
		return -1;
	cs->have |= bit;
	return 0;
}

static int parse_class_stats(const struct attr *nest, struct aiecn_nl_class_stats *cs,
			     char *err, size_t errlen)
{
	struct attrs it = nest_of(nest);
	unsigned int seen = 0;
	struct attr a;
	int r, bad;

	memset(cs, 0, sizeof(*cs));
	while ((r = next_attr(&it, &a)) > 0) {
		bad = 0;
		switch (a.type) {
		case TCA_LOSSLESS_STATS_TC:
			bad = get_u32(&a, &cs->tc);
			seen |= STATS_NEEDED_TC;
			break;
		case TCA_LOSSLESS_STATS_TX_BYTES:
			bad = get_u64(&a, &cs->tx_bytes);
			seen |= STATS_NEEDED_TX;
			break;
		case TCA_LOSSLESS_STATS_QHIST:
			bad = a.len != sizeof(cs->qhist);
			if (!bad)
				memcpy(cs->qhist, a.data, sizeof(cs->qhist));
			seen |= STATS_NEEDED_QHIST;
			break;
		case TCA_LOSSLESS_STATS_BACKLOG:
			bad = get_u32(&a, &cs->backlog);
			cs->have |= AIECN_NL_HAVE_BACKLOG;
			break;
		case TCA_LOSSLESS_STATS_ECN_MARKED:
			bad = class_u64(&a, &cs->ecn_marked, AIECN_NL_HAVE_ECN_MARKED, cs);
			break;
		case TCA_LOSSLESS_STATS_PFC_TX_XOFF:
			bad = class_u64(&a, &cs->pfc_tx_xoff, AIECN_NL_HAVE_PFC_TX_XOFF, cs);
			break;
		case TCA_LOSSLESS_STATS_PFC_RX:
			bad = class_u64(&a, &cs->pfc_rx, AIECN_NL_HAVE_PFC_RX, cs);
			break;
		case TCA_LOSSLESS_STATS_IN:
			bad = class_u64(&a, &cs->in, AIECN_NL_HAVE_IN, cs);
			break;
		default:	/* PAD and what the tuner does not use */
			break;
		}
		if (bad)
			return fail(err, errlen, -EPROTO,
				    "class statistics: attribute %u has a bad length (%zu)",
				    a.type, a.len);
	}
	if (r < 0)
		return fail(err, errlen, -EPROTO, "class statistics: malformed attribute");
	if (seen != STATS_NEEDED_ALL)
		return fail(err, errlen, -EPROTO, "class statistics without %s",
			    !(seen & STATS_NEEDED_TC) ? "TCA_LOSSLESS_STATS_TC" :
			    !(seen & STATS_NEEDED_TX) ? "TCA_LOSSLESS_STATS_TX_BYTES" :
			    "TCA_LOSSLESS_STATS_QHIST");
	if (cs->tc >= TC_LOSSLESS_NUM_TC)
		return fail(err, errlen, -EPROTO, "class statistics of traffic class %u", cs->tc);
	return 0;
}

/* The TCA_STATS_APP of a run of TCA_STATS2 attributes */
static int parse_app(const struct attr *app, struct aiecn_nl_qdisc_stats *st,
		     char *err, size_t errlen)
{
	struct attrs it = nest_of(app);
	struct aiecn_nl_class_stats cs;
	struct attr a;
	int r, ret;

	while ((r = next_attr(&it, &a)) > 0) {
		if (a.type == TCA_LOSSLESS_STATS_SPEED) {
			if (get_u64(&a, &st->speed))
				return fail(err, errlen, -EPROTO,
					    "TCA_LOSSLESS_STATS_SPEED of %zu bytes", a.len);
			st->have_speed = 1;
		} else if (a.type == TCA_LOSSLESS_STATS_CLASS) {
			ret = parse_class_stats(&a, &cs, err, errlen);
			if (ret)
				return ret;
			if (st->class_mask & (1u << cs.tc))
				return fail(err, errlen, -EPROTO,
					    "traffic class %u reported twice", cs.tc);
			st->class_mask |= 1u << cs.tc;
			st->cls[cs.tc] = cs;
		}
	}
	if (r < 0)
		return fail(err, errlen, -EPROTO, "TCA_STATS_APP: malformed attribute");
	return 0;
}

/* The port shaper's rate, TCA_LOSSLESS_RATE of the qdisc's TCA_OPTIONS, if set */
static int parse_rate(struct attrs it, struct aiecn_nl_qdisc_stats *st,
		      char *err, size_t errlen)
{
	struct attr opts, rate;
	int has;

	has = find_attr(it, TCA_OPTIONS, &opts);
	if (has < 0)
		return fail(err, errlen, -EPROTO, "qdisc message: malformed attribute");
	if (!has)
		return 0;
	has = find_attr(nest_of(&opts), TCA_LOSSLESS_RATE, &rate);
	if (has < 0)
		return fail(err, errlen, -EPROTO, "qdisc options: malformed attribute");
	if (has && get_u64(&rate, &st->rate))
		return fail(err, errlen, -EPROTO, "TCA_LOSSLESS_RATE of %zu bytes", rate.len);
	return 0;
}

int aiecn_nl_parse_qdisc(const void *msg, size_t len, struct aiecn_nl_qdisc_stats *st,
			 char *err, size_t errlen)
{
	struct attr kind, stats2, app;
	int has_kind, has_stats2, has_app, ret;
	struct attrs it;
	struct tcmsg tcm;

	memset(st, 0, sizeof(*st));
	ret = tc_open(msg, len, RTM_NEWQDISC, &tcm, &it, err, errlen);
	if (ret)
		return ret;
	st->ifindex = tcm.tcm_ifindex;
	st->handle = tcm.tcm_handle;
	st->parent = tcm.tcm_parent;
	has_kind = find_attr(it, TCA_KIND, &kind);
	has_stats2 = find_attr(it, TCA_STATS2, &stats2);
	if (has_kind < 0 || has_stats2 < 0)
		return fail(err, errlen, -EPROTO, "qdisc message: malformed attribute");
	ret = check_kind(has_kind ? &kind : NULL, "the root qdisc", err, errlen);
	if (ret)
		return ret;
	if (!has_stats2)
		return fail(err, errlen, -EPROTO, "qdisc message without TCA_STATS2");
	has_app = find_attr(nest_of(&stats2), TCA_STATS_APP, &app);
	if (has_app < 0)
		return fail(err, errlen, -EPROTO, "TCA_STATS2: malformed attribute");
	if (!has_app)
		return fail(err, errlen, -EPROTO,
			    "no TCA_STATS_APP in TCA_STATS2: a sch_lossless without telemetry?");
	ret = parse_app(&app, st, err, errlen);
	if (ret)
		return ret;
	ret = parse_rate(it, st, err, errlen);
	if (ret)
		return ret;
	/* a port shaped below its link drains at the shaper's rate */
	if (st->rate && (!st->have_speed || st->rate < st->speed)) {
		st->speed = st->rate;
		st->have_speed = 1;
	}
	return 0;
}

static int parse_class_options(const struct attr *opts, struct aiecn_nl_class_cfg *cfg,
			       char *err, size_t errlen)
{
	struct attrs it = nest_of(opts);
	struct attr a;
	int r, bad;

	while ((r = next_attr(&it, &a)) > 0) {
		bad = 0;
		switch (a.type) {
		case TCA_LOSSLESS_CLASS_ECN:
			bad = get_u8(&a, &cfg->ecn.enabled);
			cfg->have |= AIECN_NL_HAVE_ECN;
			break;
		case TCA_LOSSLESS_CLASS_KMIN:
			bad = get_u32(&a, &cfg->ecn.kmin);
			cfg->have |= AIECN_NL_HAVE_KMIN;
			break;
		case TCA_LOSSLESS_CLASS_KMAX:
			bad = get_u32(&a, &cfg->ecn.kmax);
			cfg->have |= AIECN_NL_HAVE_KMAX;
			break;
		case TCA_LOSSLESS_CLASS_PMAX:
			bad = get_u32(&a, &cfg->ecn.pmax);
			cfg->have |= AIECN_NL_HAVE_PMAX;
			break;
		case TCA_LOSSLESS_CLASS_XOFF:
			bad = get_u32(&a, &cfg->xoff);
			cfg->have |= AIECN_NL_HAVE_XOFF;
			break;
		case TCA_LOSSLESS_CLASS_XON:
			bad = get_u32(&a, &cfg->xon);
			cfg->have |= AIECN_NL_HAVE_XON;
			break;
		default:
			break;
		}
		if (bad)
			return fail(err, errlen, -EPROTO,
				    "class options: attribute %u has a bad length (%zu)",
				    a.type, a.len);
	}
	if (r < 0)
		return fail(err, errlen, -EPROTO, "class options: malformed attribute");
	return 0;
}

int aiecn_nl_parse_class(const void *msg, size_t len, struct aiecn_nl_class_cfg *cfg,
			 char *err, size_t errlen)
{
	struct attr kind, opts;
	int has_kind, has_opts, ret;
	struct attrs it;
	struct tcmsg tcm;

	memset(cfg, 0, sizeof(*cfg));
	ret = tc_open(msg, len, RTM_NEWTCLASS, &tcm, &it, err, errlen);
	if (ret)
		return ret;
	cfg->ifindex = tcm.tcm_ifindex;
	cfg->classid = tcm.tcm_handle;
	cfg->parent = tcm.tcm_parent;
	has_kind = find_attr(it, TCA_KIND, &kind);
	has_opts = find_attr(it, TCA_OPTIONS, &opts);
	if (has_kind < 0 || has_opts < 0)
		return fail(err, errlen, -EPROTO, "class message: malformed attribute");
	ret = check_kind(has_kind ? &kind : NULL, "the class's qdisc", err, errlen);
	if (ret)
		return ret;
	if (!has_opts)
		return 0;
	return parse_class_options(&opts, cfg, err, errlen);
}

int aiecn_nl_parse_error(const void *msg, size_t len, char *ext, size_t extlen)
{
	const uint8_t *p = msg;
	struct nlmsghdr h;
	struct nlmsgerr e;
	struct attrs it;
	struct attr a;
	size_t off;

	if (ext && extlen)
		ext[0] = '\0';
	if (len < sizeof(h))
		return -EPROTO;
	memcpy(&h, p, sizeof(h));
	if (h.nlmsg_type != NLMSG_ERROR || h.nlmsg_len > len ||
	    h.nlmsg_len < NLMSG_LENGTH(sizeof(e.error)))
		return -EPROTO;
	memcpy(&e.error, p + NLMSG_HDRLEN, sizeof(e.error));
	if (!(h.nlmsg_flags & NLM_F_ACK_TLVS) || h.nlmsg_len < NLMSG_LENGTH(sizeof(e)))
		return e.error;
	/* The TLVs follow the request's header, or all of it unless capped */
	memcpy(&e, p + NLMSG_HDRLEN, sizeof(e));
	off = NLMSG_HDRLEN + sizeof(e);
	if (!(h.nlmsg_flags & NLM_F_CAPPED) && e.msg.nlmsg_len > NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e.msg.nlmsg_len - NLMSG_HDRLEN);
	if (off >= h.nlmsg_len)
		return e.error;
	it.pos = p + off;
	it.left = h.nlmsg_len - off;
	while (next_attr(&it, &a) > 0)
		if (a.type == NLMSGERR_ATTR_MSG && ext && extlen && a.len)
			get_str(&a, ext, extlen);
	return e.error;
}

/* The socket */
static int sys_fail(struct aiecn_nl *nl, const char *what)
{
	int e = errno;

	snprintf(nl->err, sizeof(nl->err), "%s: %s", what, strerror(e));
	return -e;
}

int aiecn_nl_open(struct aiecn_nl *nl, int timeout_ms)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = {
		.tv_sec = timeout_ms / 1000,
		.tv_usec = (timeout_ms % 1000) * 1000,
	};
	socklen_t salen = sizeof(sa);
	int one = 1, ret;

	nl->err[0] = '\0';
	nl->seq = 0;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (nl->fd < 0)
		return sys_fail(nl, "netlink socket");
	/* Error messages and short ACKs; a kernel without them gives neither */
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (setsockopt(nl->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &salen)) {
		ret = sys_fail(nl, "netlink socket setup");
		close(nl->fd);
		nl->fd = -1;
		return ret;
	}
	nl->portid = sa.nl_pid;
	return 0;
}

void aiecn_nl_close(struct aiecn_nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
}

/* Called for each reply of a request that is not its end; < 0 stops */
typedef int (*reply_fn)(const void *msg, size_t len, void *arg);

/*
 * Send the @len bytes built in nl->buf with sequence number nl->seq, then
 * read until its ACK or error (or, for a dump, NLMSG_DONE). Replies to
 * earlier requests that timed out carry older numbers and are skipped.
 */
static int talk(struct aiecn_nl *nl, int len, reply_fn fn, void *arg)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	const uint8_t *p = (const uint8_t *)nl->buf;
	struct iovec iov = { .iov_base = nl->buf, .iov_len = sizeof(nl->buf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	uint32_t seq = nl->seq;
	struct nlmsghdr h;
	ssize_t n;
	size_t off;
	int ret;

	nl->err[0] = '\0';
	if (len < 0)
		return fail(nl->err, sizeof(nl->err), len, "request does not fit");
	if (sendto(nl->fd, nl->buf, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) != len)
		return sys_fail(nl, "netlink send");
	for (;;) {
		n = recvmsg(nl->fd, &mh, 0);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return fail(nl->err, sizeof(nl->err), -ETIMEDOUT,
				    "no answer from the kernel");
		if (n < 0)
			return sys_fail(nl, "netlink receive");
		if (mh.msg_flags & MSG_TRUNC)
			return fail(nl->err, sizeof(nl->err), -EMSGSIZE,
				    "netlink reply larger than %zu bytes", sizeof(nl->buf));
		for (off = 0; off + NLMSG_HDRLEN <= (size_t)n; off += NLMSG_ALIGN(h.nlmsg_len)) {
			memcpy(&h, p + off, sizeof(h));
			if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > n - off)
				return fail(nl->err, sizeof(nl->err), -EPROTO,
					    "malformed netlink reply");
			if (h.nlmsg_seq != seq || h.nlmsg_pid != nl->portid)
				continue;
			if (h.nlmsg_type == NLMSG_ERROR) {
				ret = aiecn_nl_parse_error(p + off, n - off, nl->err,
							   sizeof(nl->err));
				if (ret && !nl->err[0])
					snprintf(nl->err, sizeof(nl->err), "%s", strerror(-ret));
				return ret;
			}
			if (h.nlmsg_type == NLMSG_DONE) {
				ret = 0;
				if (h.nlmsg_len >= NLMSG_LENGTH(sizeof(ret)))
					memcpy(&ret, p + off + NLMSG_HDRLEN, sizeof(ret));
				if (ret)
					snprintf(nl->err, sizeof(nl->err), "dump: %s",
						 strerror(-ret));
				return ret;
			}
			ret = fn(p + off, h.nlmsg_len, arg);
			if (ret < 0)
				return ret;
		}
	}
}

struct stats_arg {
	struct aiecn_nl_qdisc_stats *st;
	int ifindex;
	int got;		/* 0, 1, or a negative errno from the parser */
	char why[AIECN_NL_ERRLEN];	/* the parser's reason: the ACK clears nl->err */
};

static int stats_reply(const void *msg, size_t len, void *arg)
{
	struct stats_arg *s = arg;

	if (s->got)
		return 0;
	s->got = aiecn_nl_parse_qdisc(msg, len, s->st, s->why, sizeof(s->why));
	if (!s->got && s->st->ifindex != s->ifindex)
		s->got = fail(s->why, sizeof(s->why), -EPROTO, "reply for ifindex %d",
			      s->st->ifindex);
	if (!s->got)
		s->got = 1;
	return 0;
}

int aiecn_nl_qdisc_stats(struct aiecn_nl *nl, int ifindex, struct aiecn_nl_qdisc_stats *st)
{
	struct stats_arg s = { .st = st, .ifindex = ifindex };
	int ret;

	ret = talk(nl, aiecn_nl_build_qdisc_get(nl->buf, sizeof(nl->buf), ++nl->seq, ifindex),
		   stats_reply, &s);
	if (ret)
		return ret;
	if (s.got < 0)
		return fail(nl->err, sizeof(nl->err), s.got, "%s", s.why);
	if (!s.got)
		return fail(nl->err, sizeof(nl->err), -ENOENT, "no root qdisc reported (noqueue?)");
	return 0;
}

struct class_arg {
	struct aiecn_nl_class_cfg *cfg;
	int ifindex;
	uint32_t classid;
	int got;		/* 0, 1, or a negative errno from the parser */
	char why[AIECN_NL_ERRLEN];
};

static int class_reply(const void *msg, size_t len, void *arg)
{
	struct class_arg *c = arg;
	struct aiecn_nl_class_cfg cfg;
	int ret;

	if (c->got)
		return 0;
	ret = aiecn_nl_parse_class(msg, len, &cfg, c->why, sizeof(c->why));
	/* another qdisc's class (not lossless, or not this one) is not ours */
	if (ret == -ENOENT || (!ret && (cfg.classid != c->classid || cfg.ifindex != c->ifindex)))
		return 0;
	if (ret) {
		c->got = ret;
		return 0;
	}
	*c->cfg = cfg;
	c->got = 1;
	return 0;
}

int aiecn_nl_class_get(struct aiecn_nl *nl, int ifindex, uint32_t handle, uint32_t classid,
		       struct aiecn_nl_class_cfg *cfg)
{
	struct class_arg c = { .cfg = cfg, .ifindex = ifindex, .classid = classid };
	int ret;

	ret = talk(nl, aiecn_nl_build_class_dump(nl->buf, sizeof(nl->buf), ++nl->seq, ifindex,
						 handle),
		   class_reply, &c);
	if (ret)
		return ret;
	if (c.got < 0)
		return fail(nl->err, sizeof(nl->err), c.got, "%s", c.why);
	if (!c.got)
		return fail(nl->err, sizeof(nl->err), -ENOENT, "no class %x:%x",
			    classid >> 16, classid & 0xffff);
	if ((cfg->have & AIECN_NL_CLASS_NEEDED) != AIECN_NL_CLASS_NEEDED)
		return fail(nl->err, sizeof(nl->err), -EPROTO,
			    "class %x:%x: the kernel reports no ecn, kmin, kmax, pmax or xoff",
			    classid >> 16, classid & 0xffff);
	return 0;
}

static int no_reply(const void *msg, size_t len, void *arg)
{
	(void)msg;
	(void)len;
	(void)arg;
	return 0;		/* an ACK is all a change gets */
}

int aiecn_nl_class_set(struct aiecn_nl *nl, int ifindex, uint32_t handle, uint32_t classid,
		       const struct aiecn_nl_ecn *ecn)
{
	return talk(nl, aiecn_nl_build_class_change(nl->buf, sizeof(nl->buf), ++nl->seq,
						    ifindex, handle, classid, ecn),
		    no_reply, NULL);
}
