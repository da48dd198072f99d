// SPDX-License-Identifier: GPL-2.0
/*
 * rawflood: send Ethernet frames out of a device as fast as it can, for the
 * hostile-input tests.
 *
 *   rawflood DEV --seconds S FRAME_HEX [FRAME_HEX...]
 *
 * Each FRAME_HEX is a whole frame from the destination address on,
 * without FCS, in hex. The frames go out in turn, in batches of 256
 * through sendmmsg() on an AF_PACKET socket bound to DEV, for S seconds
 * (a decimal). Prints one line of JSON:
 *
 *   {"sent": N, "seconds": T, "rate": N/T, "errors": E}
 *
 * errors counts sendmmsg() calls that failed (ENOBUFS when the device's
 * queue is full: the frames are then not sent, and not counted in sent).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH		256
#define MAX_FRAMES	16
#define MAX_LEN		1514

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int unhex(const char *s, unsigned char *buf)
{
	size_t n = strlen(s), i;

	if (n % 2 || n / 2 > MAX_LEN || n < 2)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		buf[i] = v;
	}
	return n / 2;
}

int main(int argc, char **argv)
{
	static unsigned char frames[MAX_FRAMES][MAX_LEN];
	static struct mmsghdr msgs[BATCH];
	static struct iovec iov[BATCH];
	int lens[MAX_FRAMES], nframes = 0, fd, i, errors = 0;
	struct sockaddr_ll addr = { 0 };
	double seconds = 1, t0, t;
	unsigned long long sent = 0;
	const char *dev;

	if (argc < 5 || strcmp(argv[2], "--seconds")) {
		fprintf(stderr, "usage: rawflood DEV --seconds S FRAME_HEX...\n");
		return 2;
	}
	dev = argv[1];
	seconds = atof(argv[3]);
	for (i = 4; i < argc && nframes < MAX_FRAMES; i++) {
		lens[nframes] = unhex(argv[i], frames[nframes]);
		if (lens[nframes] < ETH_HLEN) {
			fprintf(stderr, "rawflood: bad frame %s\n", argv[i]);
			return 2;
		}
		nframes++;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("rawflood: socket");
		return 1;
	}
	addr.sll_family = AF_PACKET;
	addr.sll_ifindex = if_nametoindex(dev);
	if (!addr.sll_ifindex) {
		fprintf(stderr, "rawflood: no device %s\n", dev);
		return 1;
	}
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = frames[i % nframes];
		iov[i].iov_len = lens[i % nframes];
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = &addr;
		msgs[i].msg_hdr.msg_namelen = sizeof(addr);
	}
	t0 = now();
	do {
		int n = sendmmsg(fd, msgs, BATCH, 0);

		if (n < 0) {
			if (errno != ENOBUFS && errno != EAGAIN) {
				perror("rawflood: sendmmsg");
				return 1;
			}
			errors++;
			usleep(100);
		} else {
			sent += n;
		}
		t = now() - t0;
	} while (t < seconds);
	printf("{\"sent\": %llu, \"seconds\": %.3f, \"rate\": %.0f, \"errors\": %d}\n",
	       sent, t, sent / t, errors);
	close(fd);
	return 0;
}
