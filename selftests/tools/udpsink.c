// SPDX-License-Identifier: GPL-2.0
/*
 * udpsink: the receiver of udpgen's datagrams, for the selftests.
 *
 *   udpsink --port P [--family 4|6] [--duration S] [--idle S] [--count N]
 *           [--series FILE] [--ready FILE] [--rcvbuf BYTES]
 *
 * It binds UDP port P (by default on "::", dual-stack; --family 4 binds
 * 0.0.0.0 only, --family 6 "::" with IPV6_V6ONLY), receives with
 * recvmmsg() and reads each datagram's ECN bits from IP_RECVTOS /
 * IPV6_RECVTCLASS. Datagrams carrying udpgen's header (see udpgen.c) are
 * counted per flow id; the others (too short, wrong magic) only as
 * "foreign".
 *
 * It stops by itself on the first of:
 *   --duration S   S seconds after it started (default: no limit)
 *   --idle S       S seconds without a datagram, counted from the first
 *                  datagram on (default 2; 0: no limit)
 *   --count N      N udpgen datagrams received
 *   SIGINT/SIGTERM
 * Before the first datagram only --duration or a signal ends it. --ready
 * FILE creates FILE once the socket is bound, so a test can start udpsink
 * in the background, wait for FILE, start the sender, then `wait` for
 * udpsink and read its stdout.
 *
 * At the end it prints one JSON object on stdout, in one write, and
 * nothing else ever goes to stdout (diagnostics go to stderr):
 *
 *   {"flows":[{"flow":ID, ...}, ...], "total":{...}, "foreign":N,
 *    "socket_drops":N}
 *
 * also when nothing arrived (no flows, total packets 0) and after a
 * receive error (exit status 1; bad options: 2, no JSON; else 0).
 *
 * Per flow (and summed or merged in "total"):
 *   packets, bytes   every datagram received, duplicates included; bytes
 *                    count (payload + 8 + 20|40 + 14) per datagram, as
 *                    udpgen counts them (on-wire without preamble and FCS)
 *   lost             seq_max + 1 - distinct seqs received, at the end:
 *                    sequence numbers start at 0, datagrams sent after the
 *                    last one received are not seen as lost
 *   reordered        datagrams whose seq is below one already received
 *                    (duplicates not included)
 *   duplicates       datagrams whose seq was received before; a seq more
 *                    than 65536 below the highest is too old to tell and
 *                    counts as reordered, not duplicate
 *   ce, ect0, ect1, not_ect   ECN field of the IP header
 *   seq_max          highest seq received (flows only)
 *   first_ns, last_ns  CLOCK_MONOTONIC arrival of the first and last
 *   rate_bps         bits after the first datagram over last_ns - first_ns
 *   delay_samples, delay_min_us, delay_avg_us, delay_p99_us, delay_max_us
 *                    one-way delay, arrival minus udpgen's send time
 *                    (CLOCK_MONOTONIC: meaningful only when both run on
 *                    one kernel, e.g. in two netns of one VM); arrival is
 *                    taken once per recvmmsg() batch, so it includes the
 *                    time in the socket's queue. p99 comes from a log
 *                    histogram, within 1%. 0 when there is no sample
 *                    (datagrams under 24 bytes carry no send time).
 * "socket_drops" is the socket's receive queue overflow count
 * (SO_RXQ_OVFL): datagrams lost in this receiver, not in the network.
 *
 * --series FILE writes a CSV of 100 ms bins from the first datagram on:
 * "t_s,flow,packets,bytes,ce", one line per bin and flow, zeros included.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/types.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define UDPGEN_MAGIC		0x55445047U	/* "UDPG" */
#define UDPGEN_HDR_MIN		16		/* magic, flow, seq */
#define UDPGEN_HDR_LEN		24		/* and the send time */
#define ETH_HDR_LEN		14
#define UDP_HDR_LEN		8
#define NSEC_PER_SEC		1000000000LL
#define BIN_NS			100000000LL	/* --series bins: 100 ms */

#define RX_BATCH		64
#define RX_BUF			64	/* only the header is read */
#define RX_CTRL			128
#define RCVBUF_DEFAULT		(4 << 20)

/* Sequence numbers remembered per flow, to tell duplicates */
#define SEEN_BITS		65536
#define SEEN_WORDS		(SEEN_BITS / 64)

/* Delay histogram: log-linear, 2^HIST_SUB_BITS buckets per power of two */
#define HIST_SUB_BITS		7
#define HIST_SUB		128	/* 2^HIST_SUB_BITS */
#define HIST_BUCKETS		((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct bin {
	unsigned long long packets;
	unsigned long long bytes;
	unsigned long long ce;
};

struct stats {
	unsigned long long packets, bytes, lost, reordered, duplicates;
	unsigned long long ecn[4];	/* by ECN codepoint */
	__s64 first_ns, last_ns;
	unsigned int first_bytes;	/* of the first datagram */
	unsigned long long delay_n;
	__u64 delay_sum, delay_min, delay_max;	/* ns */
	unsigned long long *hist;	/* HIST_BUCKETS, once there is a delay */
};

struct flow {
	__u32 id;
	struct stats st;
	bool any;
	__u64 seq_max;
	__u64 seen[SEEN_WORDS];		/* ring: bit seq % SEEN_BITS */
	struct bin *bins;
	size_t nbins;
};

struct flow_table {
	struct flow **slot;
	size_t size;			/* a power of two */
	size_t used;
};

struct sink_opts {
	unsigned int port;
	int family;			/* 0: dual-stack */
	double duration;		/* 0: no limit */
	double idle;
	unsigned long long count;	/* 0: no limit */
	const char *series;
	const char *ready;
	int rcvbuf;
};

struct strbuf {
	char *s;
	size_t len, cap;
};

static atomic_int sink_stop;

static void sink_on_signal(int sig)
{
	(void)sig;
	atomic_store(&sink_stop, 1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		fprintf(stderr, "udpsink: out of memory\n");
		exit(1);
	}
	return p;
}

static __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static __u32 get_be32(const unsigned char *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static __u64 get_be64(const unsigned char *p)
{
	return (__u64)get_be32(p) << 32 | get_be32(p + 4);
}

/* Delay histogram */

static unsigned int hist_index(__u64 v)
{
	unsigned int e;

	if (v < HIST_SUB)
		return v;
	e = 63 - __builtin_clzll(v);
	return (e - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned int)(v >> (e - HIST_SUB_BITS)) - HIST_SUB;
}

/* The middle of a bucket's range */
static __u64 hist_value(unsigned int idx)
{
	unsigned int g = idx / HIST_SUB;
	__u64 m = idx % HIST_SUB + HIST_SUB;

	if (g == 0)
		return idx;
	return (m << (g - 1)) + ((1ULL << (g - 1)) >> 1);
}

static __u64 hist_quantile(const struct stats *st, double q)
{
	unsigned long long want, seen = 0;
	unsigned int i;
	__u64 v;

	if (!st->delay_n)
		return 0;
	want = (unsigned long long)(q * st->delay_n);
	if (want >= st->delay_n)
		want = st->delay_n - 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += st->hist[i];
		if (seen > want)
			break;
	}
	v = hist_value(i < HIST_BUCKETS ? i : HIST_BUCKETS - 1);
	if (v < st->delay_min)
		v = st->delay_min;
	if (v > st->delay_max)
		v = st->delay_max;
	return v;
}

static void stats_delay(struct stats *st, __u64 d)
{
	if (!st->hist)
		st->hist = xcalloc(HIST_BUCKETS, sizeof(*st->hist));
	st->hist[hist_index(d)]++;
	if (!st->delay_n || d < st->delay_min)
		st->delay_min = d;
	if (d > st->delay_max)
		st->delay_max = d;
	st->delay_sum += d;
	st->delay_n++;
}

/* Flows */

static struct flow *flow_get(struct flow_table *t, __u32 id)
{
	size_t i, mask = t->size - 1;
	struct flow *f;

	for (i = (id * 2654435761U) & mask; t->slot[i]; i = (i + 1) & mask)
		if (t->slot[i]->id == id)
			return t->slot[i];

	if (2 * (t->used + 1) > t->size) {
		struct flow_table bigger = {
			.size = 2 * t->size,
			.slot = xcalloc(2 * t->size, sizeof(*t->slot)),
		};
		size_t j;

		for (j = 0; j < t->size; j++) {
			if (!t->slot[j])
				continue;
			mask = bigger.size - 1;
			for (i = (t->slot[j]->id * 2654435761U) & mask;
			     bigger.slot[i]; i = (i + 1) & mask)
				;
			bigger.slot[i] = t->slot[j];
		}
		bigger.used = t->used;
		free(t->slot);
		*t = bigger;
		return flow_get(t, id);
	}
	f = xcalloc(1, sizeof(*f));
	f->id = id;
	t->slot[i] = f;
	t->used++;
	return f;
}

static bool seen_test_set(struct flow *f, __u64 seq)
{
	__u64 bit = 1ULL << (seq % 64);
	__u64 *w = &f->seen[(seq % SEEN_BITS) / 64];
	bool was = *w & bit;

	*w |= bit;
	return was;
}

static void seen_clear(struct flow *f, __u64 seq)
{
	f->seen[(seq % SEEN_BITS) / 64] &= ~(1ULL << (seq % 64));
}

/*
 * Sequence accounting of one datagram. The ring remembers which of
 * seq_max - SEEN_BITS + 1 .. seq_max were received.
 */
static void flow_seq(struct flow *f, __u64 seq)
{
	__u64 s;

	if (!f->any || seq > f->seq_max) {
		if (f->any && seq - f->seq_max < SEEN_BITS) {
			for (s = f->seq_max + 1; s != seq; s++)
				seen_clear(f, s);
		} else {
			memset(f->seen, 0, sizeof(f->seen));
		}
		seen_clear(f, seq);
		f->any = true;
		f->seq_max = seq;
		seen_test_set(f, seq);
		return;
	}
	if (f->seq_max - seq < SEEN_BITS && seen_test_set(f, seq)) {
		f->st.duplicates++;
		return;
	}
	f->st.reordered++;
}

static void stats_packet(struct stats *st, __s64 t, unsigned int bytes,
			 unsigned int ecn)
{
	if (!st->packets) {
		st->first_ns = t;
		st->first_bytes = bytes;
	}
	st->last_ns = t;
	st->packets++;
	st->bytes += bytes;
	st->ecn[ecn]++;
}

static void flow_bin(struct flow *f, size_t b, unsigned int bytes, bool ce)
{
	if (b >= f->nbins) {
		size_t n = f->nbins ? f->nbins : 64;
		struct bin *p;

		while (n <= b)
			n *= 2;
		p = realloc(f->bins, n * sizeof(*p));
		if (!p) {
			fprintf(stderr, "udpsink: out of memory\n");
			exit(1);
		}
		memset(p + f->nbins, 0, (n - f->nbins) * sizeof(*p));
		f->bins = p;
		f->nbins = n;
	}
	f->bins[b].packets++;
	f->bins[b].bytes += bytes;
	f->bins[b].ce += ce;
}

/* Output */

static void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			fprintf(stderr, "udpsink: vsnprintf failed\n");
			exit(1);
		}
		if (sb->len + n < sb->cap)
			break;
		sb->cap = 2 * (sb->len + n + 1);
		sb->s = realloc(sb->s, sb->cap);
		if (!sb->s) {
			fprintf(stderr, "udpsink: out of memory\n");
			exit(1);
		}
	}
	sb->len += n;
}

static void print_stats(struct strbuf *sb, const struct stats *st)
{
	double span = (double)(st->last_ns - st->first_ns) / NSEC_PER_SEC;
	double rate = 0;

	if (st->packets > 1 && span > 0)
		rate = (st->bytes - st->first_bytes) * 8.0 / span;
	sb_printf(sb,
		  "\"packets\":%llu,\"bytes\":%llu,\"lost\":%llu,\"reordered\":%llu,\"duplicates\":%llu,",
		  st->packets, st->bytes, st->lost, st->reordered,
		  st->duplicates);
	sb_printf(sb,
		  "\"ce\":%llu,\"ect0\":%llu,\"ect1\":%llu,\"not_ect\":%llu,",
		  st->ecn[3], st->ecn[2], st->ecn[1], st->ecn[0]);
	sb_printf(sb, "\"first_ns\":%lld,\"last_ns\":%lld,\"rate_bps\":%.1f,",
		  (long long)st->first_ns, (long long)st->last_ns, rate);
	sb_printf(sb,
		  "\"delay_samples\":%llu,\"delay_min_us\":%.3f,\"delay_avg_us\":%.3f,\"delay_p99_us\":%.3f,\"delay_max_us\":%.3f",
		  st->delay_n, st->delay_min / 1e3,
		  st->delay_n ? (double)st->delay_sum / st->delay_n / 1e3 : 0.0,
		  hist_quantile(st, 0.99) / 1e3, st->delay_max / 1e3);
}

static void stats_add(struct stats *sum, const struct stats *st)
{
	unsigned int i;

	if (!st->packets)
		return;
	if (!sum->packets || st->first_ns < sum->first_ns) {
		sum->first_ns = st->first_ns;
		sum->first_bytes = st->first_bytes;
	}
	if (!sum->packets || st->last_ns > sum->last_ns)
		sum->last_ns = st->last_ns;
	sum->packets += st->packets;
	sum->bytes += st->bytes;
	sum->lost += st->lost;
	sum->reordered += st->reordered;
	sum->duplicates += st->duplicates;
	for (i = 0; i < 4; i++)
		sum->ecn[i] += st->ecn[i];
	if (!st->delay_n)
		return;
	if (!sum->delay_n || st->delay_min < sum->delay_min)
		sum->delay_min = st->delay_min;
	if (st->delay_max > sum->delay_max)
		sum->delay_max = st->delay_max;
	sum->delay_sum += st->delay_sum;
	sum->delay_n += st->delay_n;
	if (!sum->hist)
		sum->hist = xcalloc(HIST_BUCKETS, sizeof(*sum->hist));
	for (i = 0; i < HIST_BUCKETS; i++)
		sum->hist[i] += st->hist[i];
}

static int flow_cmp(const void *a, const void *b)
{
	const struct flow *fa = *(struct flow * const *)a;
	const struct flow *fb = *(struct flow * const *)b;

	return fa->id < fb->id ? -1 : fa->id > fb->id;
}

static int write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += n;
		len -= n;
	}
	return 0;
}

static int write_series(const char *path, struct flow **flows, size_t n,
			size_t nbins)
{
	FILE *f = fopen(path, "w");
	size_t b, i;

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "t_s,flow,packets,bytes,ce\n");
	for (b = 0; b < nbins; b++) {
		for (i = 0; i < n; i++) {
			const struct bin *x = b < flows[i]->nbins ?
					      &flows[i]->bins[b] : NULL;

			fprintf(f, "%.1f,%u,%llu,%llu,%llu\n", b * 0.1,
				flows[i]->id, x ? x->packets : 0,
				x ? x->bytes : 0, x ? x->ce : 0);
		}
	}
	if (fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

/* Options and socket */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: udpsink --port P [options]\n"
		"  --port P         UDP port to receive on\n"
		"  --family 4|6     IPv4 only or IPv6 only (default: dual-stack ::)\n"
		"  --duration S     stop S seconds after the start\n"
		"  --idle S         stop after S seconds without a datagram, from the\n"
		"                   first one on (default 2, 0: never)\n"
		"  --count N        stop after N udpgen datagrams\n"
		"  --series FILE    CSV of 100 ms bins: t_s,flow,packets,bytes,ce\n"
		"  --ready FILE     create FILE once the socket is bound\n"
		"  --rcvbuf BYTES   socket receive buffer (default %d)\n"
		"Prints {\"flows\":[...],\"total\":{...},\"foreign\":N,\"socket_drops\":N}.\n",
		RCVBUF_DEFAULT);
}

static int parse_num(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct sink_opts *o)
{
	static const struct option longopts[] = {
		{ "port",	required_argument, NULL, 'p' },
		{ "family",	required_argument, NULL, 'f' },
		{ "duration",	required_argument, NULL, 't' },
		{ "idle",	required_argument, NULL, 'i' },
		{ "count",	required_argument, NULL, 'c' },
		{ "series",	required_argument, NULL, 's' },
		{ "ready",	required_argument, NULL, 'r' },
		{ "rcvbuf",	required_argument, NULL, 'b' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, idx = 0;
	double v;

	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		switch (c) {
		case 'p':
			if (parse_num(optarg, 65535, &v) || v != (int)v || !v)
				goto bad;
			o->port = v;
			break;
		case 'f':
			if (strcmp(optarg, "4") && strcmp(optarg, "6"))
				goto bad;
			o->family = *optarg == '4' ? AF_INET : AF_INET6;
			break;
		case 't':
			if (parse_num(optarg, 1e9, &o->duration))
				goto bad;
			break;
		case 'i':
			if (parse_num(optarg, 1e9, &o->idle))
				goto bad;
			break;
		case 'c':
			if (parse_num(optarg, 1e18, &v) || v != (long long)v)
				goto bad;
			o->count = v;
			break;
		case 's':
			o->series = optarg;
			break;
		case 'r':
			o->ready = optarg;
			break;
		case 'b':
			if (parse_num(optarg, INT_MAX, &v) || v != (int)v)
				goto bad;
			o->rcvbuf = v;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "udpsink: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (!o->port) {
		fprintf(stderr, "udpsink: --port is needed\n");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "udpsink: bad value '%s' for --%s\n", optarg,
		longopts[idx].name);
	return -1;
}

static int setup_socket(const struct sink_opts *o)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	int family = o->family ? o->family : AF_INET6;
	int fd, one = 1, v6only = o->family == AF_INET6;
	socklen_t len;

	fd = socket(family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udpsink: socket");
		return -1;
	}
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET6) {
		if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only,
			       sizeof(v6only)) ||
		    setsockopt(fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &one,
			       sizeof(one))) {
			perror("udpsink: IPV6_V6ONLY/IPV6_RECVTCLASS");
			goto fail;
		}
		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_any;
		a6->sin6_port = htons(o->port);
		len = sizeof(*a6);
	} else {
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(INADDR_ANY);
		a4->sin_port = htons(o->port);
		len = sizeof(*a4);
	}
	/* Also on the dual-stack socket: IPv4 datagrams bring IP_TOS */
	if (!v6only &&
	    setsockopt(fd, IPPROTO_IP, IP_RECVTOS, &one, sizeof(one))) {
		perror("udpsink: IP_RECVTOS");
		goto fail;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one))) {
		perror("udpsink: SO_RXQ_OVFL");
		goto fail;
	}
	/* Over rmem_max needs CAP_NET_ADMIN; else take what there is */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &o->rcvbuf,
		       sizeof(o->rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf,
			   sizeof(o->rcvbuf));
	if (bind(fd, (struct sockaddr *)&ss, len)) {
		perror("udpsink: bind");
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* The ECN field of a received datagram; -1 if the kernel gave none */
static int rx_ecn(struct msghdr *mh)
{
	struct cmsghdr *c;
	int v;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS)
			return *(unsigned char *)CMSG_DATA(c) & 3;
		if (c->cmsg_level == IPPROTO_IPV6 &&
		    c->cmsg_type == IPV6_TCLASS) {
			memcpy(&v, CMSG_DATA(c), sizeof(v));
			return v & 3;
		}
	}
	return -1;
}

static void rx_ovfl(struct msghdr *mh, __u32 *drops)
{
	struct cmsghdr *c;
	__u32 v;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_RXQ_OVFL) {
			memcpy(&v, CMSG_DATA(c), sizeof(v));
			if (v > *drops)
				*drops = v;
		}
	}
}

/* Bytes a datagram of this payload counts for: see udpgen.c */
static unsigned int rx_wire_bytes(const struct sockaddr_storage *from,
				  unsigned int payload)
{
	const struct sockaddr_in6 *a6 = (const struct sockaddr_in6 *)from;
	unsigned int ip = 20;

	if (from->ss_family == AF_INET6 &&
	    !IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr))
		ip = 40;
	return payload + UDP_HDR_LEN + ip + ETH_HDR_LEN;
}

int main(int argc, char **argv)
{
	struct sink_opts o = { .idle = 2, .rcvbuf = RCVBUF_DEFAULT };
	static unsigned char buf[RX_BATCH][RX_BUF];
	static char ctrl[RX_BATCH][RX_CTRL];
	static struct sockaddr_storage from[RX_BATCH];
	struct mmsghdr msgs[RX_BATCH];
	struct pollfd pfd = { .events = POLLIN };
	struct iovec iov[RX_BATCH];
	struct flow_table table = { .size = 16 };
	unsigned long long valid = 0, foreign = 0;
	__s64 start, t, t_first = 0, t_last = 0, limit, wait;
	struct stats total = { 0 };
	struct strbuf sb = { 0 };
	struct flow **flows;
	bool warned = false, failed = false;
	struct sigaction sa;
	__u32 drops = 0;
	size_t nbins = 0, n, i;
	int fd, r, ecn;

	if (parse_opts(argc, argv, &o))
		return 2;
	fd = setup_socket(&o);
	if (fd < 0)
		return 1;
	if (o.ready) {
		int rfd = open(o.ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (rfd < 0) {
			perror(o.ready);
			return 1;
		}
		close(rfd);
	}
	pfd.fd = fd;
	table.slot = xcalloc(table.size, sizeof(*table.slot));

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sink_on_signal;		/* no SA_RESTART: wake up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (i = 0; i < RX_BATCH; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = RX_BUF;
	}
	start = now_ns();
	while (!atomic_load(&sink_stop)) {
		for (i = 0; i < RX_BATCH; i++) {
			memset(&msgs[i].msg_hdr, 0, sizeof(msgs[i].msg_hdr));
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &from[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
			msgs[i].msg_hdr.msg_control = ctrl[i];
			msgs[i].msg_hdr.msg_controllen = RX_CTRL;
		}
		/* MSG_TRUNC: msg_len is the datagram's length, not RX_BUF */
		r = recvmmsg(fd, msgs, RX_BATCH, MSG_DONTWAIT | MSG_TRUNC,
			     NULL);
		t = now_ns();
		if (r < 0 && errno != EAGAIN && errno != EINTR) {
			perror("udpsink: recvmmsg");
			failed = true;
			break;
		}
		for (i = 0; i < (size_t)(r > 0 ? r : 0); i++) {
			struct msghdr *mh = &msgs[i].msg_hdr;
			unsigned int len = msgs[i].msg_len, bytes;
			unsigned char *p = buf[i];
			struct flow *f;
			__s64 d;

			rx_ovfl(mh, &drops);
			if (len < UDPGEN_HDR_MIN ||
			    get_be32(p) != UDPGEN_MAGIC) {
				foreign++;
				continue;
			}
			ecn = rx_ecn(mh);
			if (ecn < 0) {
				if (!warned)
					fprintf(stderr,
						"udpsink: a datagram without TOS/TCLASS (counted not-ECT)\n");
				warned = true;
				ecn = 0;
			}
			if (!valid)
				t_first = t;
			t_last = t;
			valid++;
			bytes = rx_wire_bytes(&from[i], len);
			f = flow_get(&table, get_be32(p + 4));
			flow_seq(f, get_be64(p + 8));
			stats_packet(&f->st, t, bytes, ecn);
			if (len >= UDPGEN_HDR_LEN) {
				d = t - (__s64)get_be64(p + 16);
				stats_delay(&f->st, d > 0 ? d : 0);
			}
			if (o.series) {
				size_t b = (t - t_first) / BIN_NS;

				flow_bin(f, b, bytes, ecn == 3);
				if (b + 1 > nbins)
					nbins = b + 1;
			}
		}
		if (o.count && valid >= o.count)
			break;

		limit = -1;
		if (o.duration > 0)
			limit = start + (__s64)(o.duration * NSEC_PER_SEC);
		if (valid && o.idle > 0) {
			__s64 il = t_last + (__s64)(o.idle * NSEC_PER_SEC);

			if (limit < 0 || il < limit)
				limit = il;
		}
		if (limit >= 0 && t >= limit)
			break;
		if (r == RX_BATCH)
			continue;	/* there may be more right away */

		/* Sleep until a datagram comes or the first limit is hit */
		wait = limit < 0 ? 1000 : (limit - t + 999999) / 1000000;
		if (wait > 1000)
			wait = 1000;
		poll(&pfd, 1, wait);
	}

	/* Sequence losses, the per-flow list in flow id order */
	flows = xcalloc(table.used ? table.used : 1, sizeof(*flows));
	for (i = 0, n = 0; i < table.size; i++)
		if (table.slot[i])
			flows[n++] = table.slot[i];
	qsort(flows, n, sizeof(*flows), flow_cmp);

	sb_printf(&sb, "{\"flows\":[");
	for (i = 0; i < n; i++) {
		struct flow *f = flows[i];
		__u64 distinct = f->st.packets - f->st.duplicates;

		f->st.lost = f->seq_max + 1 > distinct ?
			     f->seq_max + 1 - distinct : 0;
		stats_add(&total, &f->st);
		sb_printf(&sb, "%s{\"flow\":%u,", i ? "," : "", f->id);
		print_stats(&sb, &f->st);
		sb_printf(&sb, ",\"seq_max\":%llu}",
			  (unsigned long long)f->seq_max);
	}
	sb_printf(&sb, "],\"total\":{");
	print_stats(&sb, &total);
	sb_printf(&sb, "},\"foreign\":%llu,\"socket_drops\":%u}\n", foreign,
		  drops);

	r = failed;
	if (o.series && write_series(o.series, flows, n, nbins))
		r = 1;
	if (write_all(STDOUT_FILENO, sb.s, sb.len)) {
		perror("udpsink: write");
		r = 1;
	}
	for (i = 0; i < n; i++) {
		free(flows[i]->st.hist);
		free(flows[i]->bins);
		free(flows[i]);
	}
	free(total.hist);
	free(flows);
	free(table.slot);
	free(sb.s);
	close(fd);
	return r;
}
