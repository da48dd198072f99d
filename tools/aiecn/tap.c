// SPDX-License-Identifier: GPL-2.0
/*
 * tap: the TAP harness shared by aiecn's unit tests (see tap.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

/* Diagnostics of the running test, printed after its result line */
static char diag[8192];
static size_t diag_len;
int cur_ok;

void note(const char *fmt, ...)
{
	va_list ap;
	int len;

	if (diag_len + 4 >= sizeof(diag))
		return;
	diag[diag_len++] = '#';
	diag[diag_len++] = ' ';
	va_start(ap, fmt);
	len = vsnprintf(diag + diag_len, sizeof(diag) - diag_len - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	if ((size_t)len > sizeof(diag) - diag_len - 2)
		len = (int)(sizeof(diag) - diag_len - 2);
	diag_len += (size_t)len;
	diag[diag_len++] = '\n';
	diag[diag_len] = '\0';
}

int check(int ok, const char *expr, int line)
{
	if (!ok) {
		cur_ok = 0;
		note("line %d: failed: %s", line, expr);
	}
	return ok;
}

int check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, int line)
{
	if (a != b) {
		cur_ok = 0;
		note("line %d: %s == %llu (0x%llx), expected %s == %llu", line, ea,
		     (unsigned long long)a, (unsigned long long)a, eb, (unsigned long long)b);
	}
	return a == b;
}

int check_near(double a, double b, double tol, const char *ea, const char *eb, int line)
{
	int ok = fabs(a - b) <= tol;

	if (!ok) {
		cur_ok = 0;
		note("line %d: %s == %.9g, expected %s == %.9g", line, ea, a, eb, b);
	}
	return ok;
}

int check_str(const char *a, const char *b, const char *ea, int line)
{
	int ok = !strcmp(a, b);

	if (!ok) {
		cur_ok = 0;
		note("line %d: %s == \"%s\", expected \"%s\"", line, ea, a, b);
	}
	return ok;
}

/* @hay contains @needle */
int check_has(const char *hay, const char *needle, const char *ea, int line)
{
	int ok = !!strstr(hay, needle);

	if (!ok) {
		cur_ok = 0;
		note("line %d: %s == \"%s\" lacks \"%s\"", line, ea, hay, needle);
	}
	return ok;
}

int tap_run(const struct tap_test *tests, int n)
{
	int i, failed = 0;

	printf("TAP version 13\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		cur_ok = 1;
		diag_len = 0;
		diag[0] = '\0';
		tests[i].fn();
		printf("%sok %d - %s\n", cur_ok ? "" : "not ", i + 1, tests[i].name);
		fputs(diag, stdout);
		if (!cur_ok)
			failed++;
	}
	if (failed)
		printf("# %d of %d failed\n", failed, n);
	return failed ? 1 : 0;
}
