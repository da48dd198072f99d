// SPDX-License-Identifier: GPL-2.0
/*
 * tcpgen: TCP flows for the ECN experiments, long ones and short ones.
 *
 *   tcpgen sink --port P [--cc NAME]
 *   tcpgen send --dst ADDR --port P [--flows N] [--size BYTES] [--every MS]
 *               [--duration S] [--tos TOS] [--cc NAME]
 *
 * sink accepts connections on P (IPv4) and reads everything; when a peer
 * has sent all (EOF) it closes the connection, which tells the sender its
 * flow is complete. It runs until SIGINT or SIGTERM and then prints
 *   {"bytes":N,"connections":N}
 *
 * send runs --flows slots (threads) for --duration seconds (default 10).
 * Without --size (or with 0) each slot is one long flow writing until the
 * end. With --size each slot sends flows of that many bytes: connect, write
 * them, shut the write side, wait for the sink to close. With --every, the
 * slots start a flow at every multiple of MS from the start (an incast
 * when several senders share the period); a slot whose previous flow is
 * still running skips the tick and counts it. Without --every they run
 * back to back. Flow completion times (FCT) are from connect() to the
 * sink's close; output, one JSON line:
 *   {"flows":N,"bytes":N,"seconds":F,"skipped":N,"errors":N,
 *    "fct_ms":{"mean":F,"p50":F,"p99":F,"max":F}}
 * bytes counts payload written; flows counts completed flows (long flows
 * count when they end with the run).
 *
 * --tos sets IP_TOS (the DSCP; TCP owns the ECN bits) and --cc the
 * congestion control (TCP_CONGESTION, e.g. dctcp, which negotiates ECN by
 * itself). Errors go to stderr; the exit status is 2 for bad options, 1
 * when nothing could be sent or received, else 0.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SLOTS	256
#define MAX_FCTS	1048576
#define SINK_MAX	1024
#define BUF_SIZE	65536

static atomic_int stop;

struct opts {
	struct sockaddr_in dst;
	int port;
	int flows;
	uint64_t size;
	double every_ms;
	double duration;
	int tos;
	const char *cc;
};

static struct opts o = { .flows = 1, .duration = 10, .tos = -1 };

/* What the slots record, under lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double *fcts;
static size_t nfct;
static uint64_t total_bytes, skipped, errors;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void sleep_until(double t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR &&
	       !atomic_load(&stop))
		;
}

static int set_cc(int fd, const char *cc)
{
	if (cc && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc))) {
		fprintf(stderr, "tcpgen: --cc %s: %s\n", cc, strerror(errno));
		return -1;
	}
	return 0;
}

static void record(double fct, uint64_t bytes, int err)
{
	pthread_mutex_lock(&lock);
	total_bytes += bytes;
	if (err)
		errors++;
	else if (nfct < MAX_FCTS)
		fcts[nfct++] = fct * 1e3;
	pthread_mutex_unlock(&lock);
}

/*
 * One flow of @size bytes (0: until @end). Returns 0 when the sink closed
 * after all was sent (or the long flow reached the end), else -1.
 */
static int one_flow(uint64_t size, double end, uint64_t *sent)
{
	static const char buf[BUF_SIZE];
	char rbuf[256];
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };
	int fd, ret = -1;
	ssize_t n;

	*sent = 0;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (o.tos >= 0 && setsockopt(fd, IPPROTO_IP, IP_TOS, &o.tos, sizeof(o.tos)))
		goto out;
	if (set_cc(fd, o.cc))
		goto out;
	/* a timeout on writes and reads, so that the end of the run is seen */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&o.dst, sizeof(o.dst)))
		goto out;
	while (!atomic_load(&stop) && now_s() < end && (!size || *sent < size)) {
		size_t len = BUF_SIZE;

		if (size && size - *sent < len)
			len = size - *sent;
		n = write(fd, buf, len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			goto out;
		*sent += (uint64_t)n;
	}
	if (!size) {
		ret = 0;
		goto out;
	}
	if (*sent < size)
		goto out;
	shutdown(fd, SHUT_WR);
	/* the sink closes once it has read everything */
	for (;;) {
		n = read(fd, rbuf, sizeof(rbuf));
		if (n == 0) {
			ret = 0;
			break;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR) && !atomic_load(&stop) &&
		    now_s() < end + 5)
			continue;
		break;
	}
out:
	close(fd);
	return ret;
}

struct slot {
	pthread_t th;
	double start, end;
};

static void *slot_run(void *arg)
{
	struct slot *s = arg;
	double t, next = s->start;
	uint64_t sent;
	int err;

	while (!atomic_load(&stop) && now_s() < s->end) {
		if (o.every_ms > 0) {
			sleep_until(next);
			if (atomic_load(&stop) || now_s() >= s->end)
				break;
		}
		t = now_s();
		err = one_flow(o.size, s->end, &sent);
		record(now_s() - t, sent, err);
		if (!o.size)
			break;
		if (o.every_ms > 0) {
			/* the next tick not yet past; the ones missed are skipped */
			next += o.every_ms / 1e3;
			while (next < now_s()) {
				next += o.every_ms / 1e3;
				pthread_mutex_lock(&lock);
				skipped++;
				pthread_mutex_unlock(&lock);
			}
		}
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double quantile(const double *v, size_t n, double q)
{
	size_t i;

	if (!n)
		return 0;
	i = (size_t)(q * (double)(n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}

static int do_send(void)
{
	static struct slot slots[MAX_SLOTS];
	double t0, t1, sum = 0;
	size_t i;
	int k;

	fcts = calloc(MAX_FCTS, sizeof(*fcts));
	if (!fcts)
		return 1;
	t0 = now_s();
	for (k = 0; k < o.flows; k++) {
		slots[k].start = t0;
		slots[k].end = t0 + o.duration;
		if (pthread_create(&slots[k].th, NULL, slot_run, &slots[k])) {
			fprintf(stderr, "tcpgen: cannot start slot %d\n", k);
			atomic_store(&stop, 1);
			o.flows = k;
			break;
		}
	}
	for (k = 0; k < o.flows; k++)
		pthread_join(slots[k].th, NULL);
	t1 = now_s();
	qsort(fcts, nfct, sizeof(*fcts), cmp_double);
	for (i = 0; i < nfct; i++)
		sum += fcts[i];
	printf("{\"flows\":%zu,\"bytes\":%llu,\"seconds\":%.3f,", nfct,
	       (unsigned long long)total_bytes, t1 - t0);
	printf("\"skipped\":%llu,\"errors\":%llu,", (unsigned long long)skipped,
	       (unsigned long long)errors);
	printf("\"fct_ms\":{\"mean\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f}}\n",
	       nfct ? sum / (double)nfct : 0, quantile(fcts, nfct, 0.5),
	       quantile(fcts, nfct, 0.99), nfct ? fcts[nfct - 1] : 0);
	free(fcts);
	return total_bytes ? 0 : 1;
}

static int do_sink(void)
{
	static struct pollfd p[SINK_MAX + 1];
	static char buf[BUF_SIZE];
	struct sockaddr_in a = { .sin_family = AF_INET };
	uint64_t bytes = 0, conns = 0;
	int one = 1, lfd, n = 1, i, fd;
	ssize_t r;

	a.sin_port = htons((uint16_t)o.port);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    set_cc(lfd, o.cc) || bind(lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(lfd, 1024)) {
		fprintf(stderr, "tcpgen: sink on port %d: %s\n", o.port, strerror(errno));
		return 1;
	}
	p[0].fd = lfd;
	p[0].events = POLLIN;
	while (!atomic_load(&stop)) {
		if (poll(p, (nfds_t)n, 200) < 0)
			continue;
		if ((p[0].revents & POLLIN) && n <= SINK_MAX) {
			fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
			if (fd >= 0) {
				p[n].fd = fd;
				p[n].events = POLLIN;
				p[n].revents = 0;
				n++;
				conns++;
			}
		}
		for (i = 1; i < n; i++) {
			if (!p[i].revents)
				continue;
			r = read(p[i].fd, buf, sizeof(buf));
			if (r > 0) {
				bytes += (uint64_t)r;
				continue;
			}
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			/* EOF or an error: done with it; the last slot fills the hole */
			close(p[i].fd);
			p[i] = p[--n];
			i--;
		}
	}
	for (i = 1; i < n; i++)
		close(p[i].fd);
	close(lfd);
	printf("{\"bytes\":%llu,\"connections\":%llu}\n", (unsigned long long)bytes,
	       (unsigned long long)conns);
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: tcpgen sink --port P [--cc NAME]\n"
		"       tcpgen send --dst ADDR --port P [--flows N] [--size BYTES]\n"
		"                   [--every MS] [--duration S] [--tos TOS] [--cc NAME]\n");
	exit(2);
}

static double num(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "tcpgen: %s '%s': not a number in [%g, %g]\n", opt, s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dst", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "flows", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "every", required_argument, NULL, 'e' },
		{ "duration", required_argument, NULL, 't' },
		{ "tos", required_argument, NULL, 'q' },
		{ "cc", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct sigaction sa = { .sa_handler = on_signal };
	const char *dst = NULL;
	int c, sink;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "sink"))
		sink = 1;
	else if (!strcmp(argv[1], "send"))
		sink = 0;
	else
		usage();
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dst = optarg;
			break;
		case 'p':
			o.port = (int)num("--port", optarg, 1, 65535);
			break;
		case 'n':
			o.flows = (int)num("--flows", optarg, 1, MAX_SLOTS);
			break;
		case 's':
			o.size = (uint64_t)num("--size", optarg, 0, 1e12);
			break;
		case 'e':
			o.every_ms = num("--every", optarg, 0, 1e6);
			break;
		case 't':
			o.duration = num("--duration", optarg, 0.001, 1e6);
			break;
		case 'q':
			o.tos = (int)num("--tos", optarg, 0, 255);
			break;
		case 'c':
			o.cc = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || !o.port)
		usage();
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (sink)
		return do_sink();
	o.dst.sin_family = AF_INET;
	o.dst.sin_port = htons((uint16_t)o.port);
	if (!dst || inet_pton(AF_INET, dst, &o.dst.sin_addr) != 1) {
		fprintf(stderr, "tcpgen: --dst: an IPv4 address is needed\n");
		return 2;
	}
	return do_send();
}
