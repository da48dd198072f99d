/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap: the small TAP harness of aiecn's unit tests. A test is a function
 * that calls the checks below; a failed check marks it failed and notes
 * why, and the notes are printed after the test's result line.
 */
#ifndef _TAP_H
#define _TAP_H

#include <stdint.h>

struct tap_test {
	const char *name;
	void (*fn)(void);
};

/* 1 while the running test has not failed; a test may clear it itself */
extern int cur_ok;

/* A "# " diagnostic line of the running test */
void note(const char *fmt, ...);

int check(int ok, const char *expr, int line);
int check_u64(uint64_t a, uint64_t b, const char *ea, const char *eb, int line);
int check_near(double a, double b, double tol, const char *ea, const char *eb, int line);
int check_str(const char *a, const char *b, const char *ea, int line);
int check_has(const char *hay, const char *needle, const char *ea, int line);

/* Runs @n tests, prints TAP; returns the exit status, 1 on any failure */
int tap_run(const struct tap_test *tests, int n);

/* tolerances of floating-point comparisons */
#define EPS_TIGHT	0.000000000001
#define EPS_LOOSE	0.000000001

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define CHECK(c)		check(!!(c), #c, __LINE__)
#define CHECK_EQ(a, b)		check_u64((uint64_t)(a), (uint64_t)(b), #a, #b, __LINE__)
#define CHECK_NEAR(a, b, t)	check_near((a), (b), (t), #a, #b, __LINE__)
#define CHECK_STR(a, b)		check_str((a), (b), #a, __LINE__)
#define CHECK_HAS(a, b)		check_has((a), (b), #a, __LINE__)

#endif /* _TAP_H */
