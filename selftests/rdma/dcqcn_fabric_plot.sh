#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dcqcn_fabric_plot.sh DIR: DIR/dcqcn_fabric.png from the files
# dcqcn_fabric_report.py wrote there (plot-RUN.dat, rate-SENDER-RUN.dat):
# DCQCN off on the left, on on the right; above, each sender's rate at the
# switch and (on) its QP's DCQCN rate R_C; below, the switch's queue to
# the receiver. Fails when gnuplot is not installed.
set -eu

d=$1
if ! command -v gnuplot > /dev/null; then
	echo "# no plot: gnuplot is not installed (make deps)"
	exit 1
fi
cd "$d"
if ! [ -s plot-off.dat ] || ! [ -s plot-on.dat ]; then
	echo "# no plot: the run left no samples"
	exit 1
fi
gnuplot <<'GP'
set terminal pngcairo size 1400,800
set output "dcqcn_fabric.png"
set multiplot layout 2,2 title "Two RDMA senders into one 8 Mbit/s switch port, PFC on: DCQCN off and on"
set grid
set key top right
set xlabel "time since both send (s)"
set ylabel "Mbit/s"
set yrange [0:9]
set title "DCQCN off: each sender's rate at the switch"
plot "plot-off.dat" using 1:2 with lines lw 2 title "s1", \
     "plot-off.dat" using 1:3 with lines lw 2 title "s2"
set title "DCQCN on: rate at the switch, and the QP's rate R_C"
plot "plot-on.dat" using 1:2 with lines lw 2 title "s1 at the switch", \
     "plot-on.dat" using 1:3 with lines lw 2 title "s2 at the switch", \
     "rate-s1-on.dat" using 1:2 with steps dashtype 2 title "s1's R_C", \
     "rate-s2-on.dat" using 1:2 with steps dashtype 2 title "s2's R_C"
set ylabel "KiB"
set autoscale y
set yrange [0:*]
set title "DCQCN off: the switch's queue to the receiver"
plot "plot-off.dat" using 1:4 with lines lw 2 title "queue"
set title "DCQCN on: the switch's queue to the receiver"
plot "plot-on.dat" using 1:4 with lines lw 2 title "queue"
unset multiplot
GP
