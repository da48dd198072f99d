// SPDX-License-Identifier: GPL-2.0
/*
 * udpgen: a UDP sender for the selftests and benchmarks.
 *
 *   udpgen --dst ADDR --port P [--size BYTES] [--count N] [--duration S]
 *          [--rate BITS_PER_S] [--tos TOS] [--priority N] [--flow ID]
 *          [--batch N] [--recverr]
 *
 * Each datagram's payload starts with a header, all fields big endian:
 *
 *   offset 0   u32 magic     UDPGEN_MAGIC ("UDPG")
 *   offset 4   u32 flow      --flow
 *   offset 8   u64 seq       0, 1, 2, ... per run
 *   offset 16  u64 send time CLOCK_MONOTONIC in ns (payloads of 24 bytes
 *                            and more; 16 to 23 bytes carry no time)
 *
 * The rest of the payload is zero. udpsink reads the header.
 *
 * Rate and byte accounting: a datagram of P payload bytes counts as
 * (P + 8 + 20 + 14) * 8 bits over IPv4 and (P + 8 + 40 + 14) * 8 bits over
 * IPv6: UDP, IP and Ethernet headers, no VLAN tag, preamble, FCS or
 * inter-frame gap. That is what a qdisc on an Ethernet device counts, so
 * "--rate 10000000" is 10 Mbit/s in `tc -s qdisc show`. With --rate the
 * send times follow a fixed schedule from the start (packet k is due when
 * the bits of packets 0..k-1 at the rate have elapsed): sleeps on
 * CLOCK_MONOTONIC with TIMER_ABSTIME, and all packets already due go out
 * in one sendmmsg() (up to --batch), so late wake-ups do not lower the
 * long-run rate. Without --rate (or with 0) it sends as fast as it can,
 * --batch datagrams per sendmmsg() (default 32).
 *
 * The run ends after --count datagrams or --duration seconds, whichever
 * comes first (at least one of them is needed), or on SIGINT/SIGTERM.
 * A send that fails with ENOBUFS or EAGAIN is retried (the datagram was
 * not sent) and counted in "retries". Note: a UDP socket only sees
 * ENOBUFS for a datagram a qdisc dropped if IP_RECVERR (IPV6_RECVERR) is
 * set; --recverr sets it, so that local qdisc drops become retries instead
 * of losses. A blocking socket whose send buffer is full (skbs held in a
 * qdisc or a device) simply waits.
 *
 * Output, on stdout, one JSON line:
 *   {"sent":N,"bytes":N,"seconds":F,"rate_bps":F,"retries":N}
 * where bytes counts as above and rate_bps = bytes * 8 / seconds, seconds
 * from the first send to the end of the last one. Errors go to stderr and
 * make the exit status 1 (2 for bad options); a send error other than the
 * ones above ends the run, and the JSON line still reports what was sent.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
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
#define UDPGEN_MAX_PAYLOAD	65507
#define UDPGEN_MAX_BATCH	1024
#define ETH_HDR_LEN		14
#define UDP_HDR_LEN		8
#define NSEC_PER_SEC		1000000000LL

struct udpgen_opts {
	const char *dst;
	const char *port;
	unsigned int size;
	unsigned long long count;	/* 0: no limit */
	double duration;		/* 0: no limit */
	double rate;			/* bit/s, 0: as fast as possible */
	int tos;			/* -1: not set */
	int priority;			/* -1: not set */
	__u32 flow;
	unsigned int batch;		/* 0: the default */
	bool recverr;
};

static atomic_int udpgen_stop;

static void udpgen_on_signal(int sig)
{
	(void)sig;
	atomic_store(&udpgen_stop, 1);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: udpgen --dst ADDR --port P [options]\n"
		"  --dst ADDR         IPv4 or IPv6 destination (numeric)\n"
		"  --port P           UDP destination port\n"
		"  --size BYTES       UDP payload, %d to %d (default 1000)\n"
		"  --count N          stop after N datagrams\n"
		"  --duration S       stop after S seconds (at least one of the two)\n"
		"  --rate BITS        bit/s counted as (payload+8+20|40+14)*8 per\n"
		"                     datagram; k, M, G suffixes (x1000); 0 = no pacing\n"
		"  --tos TOS          IP_TOS / IPV6_TCLASS (ECT(0) = 0x02, ECT(1) = 0x01)\n"
		"  --priority N       SO_PRIORITY\n"
		"  --flow ID          flow id (u32) written into each payload\n"
		"  --batch N          datagrams per sendmmsg (default 32; with --rate,\n"
		"                     at most this many already due ones)\n"
		"  --recverr          set IP_RECVERR: qdisc drops are retried\n"
		"Prints {\"sent\",\"bytes\",\"seconds\",\"rate_bps\",\"retries\"} as JSON.\n",
		UDPGEN_HDR_MIN, UDPGEN_MAX_PAYLOAD);
}

static __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until_ns(__s64 t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	/* EINTR: the caller looks at the clock and the stop flag again */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void put_be32(unsigned char *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be64(unsigned char *p, __u64 v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, (__u32)v);
}

/* A number with an optional k, M or G suffix (powers of 1000) */
static int parse_rate(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		v *= 1e3;
		end++;
		break;
	case 'm':
	case 'M':
		v *= 1e6;
		end++;
		break;
	case 'g':
	case 'G':
		v *= 1e9;
		end++;
		break;
	}
	if (*end)
		return -1;
	*out = v;
	return 0;
}

static int parse_ull(const char *s, unsigned long long max,
		     unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (*s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct udpgen_opts *o)
{
	static const struct option longopts[] = {
		{ "dst",	required_argument, NULL, 'd' },
		{ "port",	required_argument, NULL, 'p' },
		{ "size",	required_argument, NULL, 's' },
		{ "count",	required_argument, NULL, 'c' },
		{ "duration",	required_argument, NULL, 't' },
		{ "rate",	required_argument, NULL, 'r' },
		{ "tos",	required_argument, NULL, 'T' },
		{ "priority",	required_argument, NULL, 'P' },
		{ "flow",	required_argument, NULL, 'f' },
		{ "batch",	required_argument, NULL, 'b' },
		{ "recverr",	no_argument,	   NULL, 'e' },
		{ "help",	no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long long v;
	int c, idx = 0;
	char *end;

	while ((c = getopt_long(argc, argv, "", longopts, &idx)) != -1) {
		switch (c) {
		case 'd':
			o->dst = optarg;
			break;
		case 'p':
			if (parse_ull(optarg, 65535, &v) || !v)
				goto bad;
			o->port = optarg;
			break;
		case 's':
			if (parse_ull(optarg, UDPGEN_MAX_PAYLOAD, &v) ||
			    v < UDPGEN_HDR_MIN)
				goto bad;
			o->size = v;
			break;
		case 'c':
			if (parse_ull(optarg, ULLONG_MAX, &o->count))
				goto bad;
			break;
		case 't':
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || o->duration < 0)
				goto bad;
			break;
		case 'r':
			if (parse_rate(optarg, &o->rate))
				goto bad;
			break;
		case 'T':
			if (parse_ull(optarg, 255, &v))
				goto bad;
			o->tos = v;
			break;
		case 'P':
			if (parse_ull(optarg, INT_MAX, &v))
				goto bad;
			o->priority = v;
			break;
		case 'f':
			if (parse_ull(optarg, 0xffffffffULL, &v))
				goto bad;
			o->flow = v;
			break;
		case 'b':
			if (parse_ull(optarg, UDPGEN_MAX_BATCH, &v) || !v)
				goto bad;
			o->batch = v;
			break;
		case 'e':
			o->recverr = true;
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
		fprintf(stderr, "udpgen: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (!o->dst || !o->port) {
		fprintf(stderr, "udpgen: --dst and --port are needed\n");
		return -1;
	}
	if (!o->count && o->duration <= 0) {
		fprintf(stderr, "udpgen: give --count and/or --duration\n");
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "udpgen: bad value '%s' for --%s\n", optarg,
		longopts[idx].name);
	return -1;
}

static int setup_socket(const struct udpgen_opts *o,
			struct sockaddr_storage *dst, socklen_t *dstlen,
			unsigned int *overhead)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_DGRAM,
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
	};
	struct addrinfo *ai;
	int fd, err, one = 1;

	err = getaddrinfo(o->dst, o->port, &hints, &ai);
	if (err) {
		fprintf(stderr, "udpgen: %s: %s\n", o->dst, gai_strerror(err));
		return -1;
	}
	memcpy(dst, ai->ai_addr, ai->ai_addrlen);
	*dstlen = ai->ai_addrlen;
	freeaddrinfo(ai);

	fd = socket(dst->ss_family, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udpgen: socket");
		return -1;
	}
	if (dst->ss_family == AF_INET6) {
		*overhead = ETH_HDR_LEN + 40 + UDP_HDR_LEN;
		if (o->tos >= 0 &&
		    setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &o->tos,
			       sizeof(o->tos))) {
			perror("udpgen: IPV6_TCLASS");
			goto fail;
		}
		if (o->recverr &&
		    setsockopt(fd, IPPROTO_IPV6, IPV6_RECVERR, &one,
			       sizeof(one))) {
			perror("udpgen: IPV6_RECVERR");
			goto fail;
		}
	} else {
		*overhead = ETH_HDR_LEN + 20 + UDP_HDR_LEN;
		if (o->tos >= 0 &&
		    setsockopt(fd, IPPROTO_IP, IP_TOS, &o->tos,
			       sizeof(o->tos))) {
			perror("udpgen: IP_TOS");
			goto fail;
		}
		if (o->recverr &&
		    setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one))) {
			perror("udpgen: IP_RECVERR");
			goto fail;
		}
	}
	/* After IP_TOS, which sets the socket's priority from the TOS */
	if (o->priority >= 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &o->priority,
		       sizeof(o->priority))) {
		perror("udpgen: SO_PRIORITY");
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

int main(int argc, char **argv)
{
	struct udpgen_opts o = {
		.size = 1000,
		.tos = -1,
		.priority = -1,
	};
	struct mmsghdr *msgs;
	struct iovec *iovs;
	struct sockaddr_storage dst;
	struct sigaction sa;
	unsigned char *bufs;
	unsigned long long sent = 0, retries = 0, bytes, left;
	unsigned int overhead, wire_bits, batch, i, n;
	__s64 start, deadline = 0, end, due, now;
	socklen_t dstlen;
	double secs;
	bool failed = false;
	char out[256];
	int fd, len, r;

	if (parse_opts(argc, argv, &o))
		return 2;
	fd = setup_socket(&o, &dst, &dstlen, &overhead);
	if (fd < 0)
		return 1;
	wire_bits = (o.size + overhead) * 8;
	batch = o.batch ? o.batch : 32;

	bufs = calloc(batch, o.size);
	iovs = calloc(batch, sizeof(*iovs));
	msgs = calloc(batch, sizeof(*msgs));
	if (!bufs || !iovs || !msgs) {
		fprintf(stderr, "udpgen: out of memory\n");
		return 1;
	}
	for (i = 0; i < batch; i++) {
		unsigned char *p = bufs + (size_t)i * o.size;

		put_be32(p, UDPGEN_MAGIC);
		put_be32(p + 4, o.flow);
		iovs[i].iov_base = p;
		iovs[i].iov_len = o.size;
		msgs[i].msg_hdr.msg_iov = &iovs[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &dst;
		msgs[i].msg_hdr.msg_namelen = dstlen;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = udpgen_on_signal;	/* no SA_RESTART: wake up */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	start = now_ns();
	if (o.duration > 0)
		deadline = start + (__s64)(o.duration * NSEC_PER_SEC);

	while (!atomic_load(&udpgen_stop)) {
		left = o.count ? o.count - sent : ULLONG_MAX;
		if (!left)
			break;
		n = left < batch ? left : batch;
		now = now_ns();
		if (deadline && now >= deadline)
			break;
		if (o.rate > 0) {
			/* Packet number sent is due at start + its bits / rate */
			due = start + (__s64)((double)sent * wire_bits *
					      NSEC_PER_SEC / o.rate);
			if (due > now) {
				if (deadline && due >= deadline) {
					sleep_until_ns(deadline);
					break;
				}
				sleep_until_ns(due);
				continue;
			}
			/* Send what is due by now, at most a batch */
			for (i = 1; i < n; i++) {
				due = start + (__s64)((double)(sent + i) *
						      wire_bits *
						      NSEC_PER_SEC / o.rate);
				if (due > now)
					break;
			}
			n = i;
		}
		for (i = 0; i < n; i++) {
			unsigned char *p = iovs[i].iov_base;

			put_be64(p + 8, sent + i);
			if (o.size >= UDPGEN_HDR_LEN)
				put_be64(p + 16, now);
		}
		i = 0;
		while (i < n) {
			r = sendmmsg(fd, msgs + i, n - i, 0);
			if (r > 0) {
				i += r;
				/* a signal cuts a batch short without EINTR */
				if (atomic_load(&udpgen_stop))
					break;
				continue;
			}
			if (errno == EINTR) {
				if (atomic_load(&udpgen_stop))
					break;
				continue;
			}
			if (errno == ENOBUFS || errno == EAGAIN ||
			    (o.recverr && errno == ECONNREFUSED)) {
				/* Backpressure: the datagram was not sent */
				struct timespec pause = { 0, 20000 };

				retries++;
				if (deadline && now_ns() >= deadline)
					break;
				if (errno != ECONNREFUSED)
					nanosleep(&pause, NULL);
				continue;
			}
			perror("udpgen: sendmmsg");
			failed = true;
			break;
		}
		sent += i;
		if (i < n || failed)
			break;
	}
	end = now_ns();

	bytes = sent * (o.size + overhead);
	secs = (double)(end - start) / NSEC_PER_SEC;
	len = snprintf(out, sizeof(out),
		       "{\"sent\":%llu,\"bytes\":%llu,\"seconds\":%.6f,\"rate_bps\":%.1f,\"retries\":%llu}\n",
		       sent, bytes, secs, secs > 0 ? bytes * 8.0 / secs : 0.0,
		       retries);
	if (write(STDOUT_FILENO, out, len) != len) {
		perror("udpgen: write");
		failed = true;
	}
	close(fd);
	free(msgs);
	free(iovs);
	free(bufs);
	return failed;
}
