# SPDX-License-Identifier: GPL-2.0
#
# sch_lossless and dcqcn_cc: a software lossless Ethernet and DCQCN for
# soft-RoCE. The two commands a newcomer needs:
#
#   make demo    build, boot a VM, run the experiment and report
#   make check   every test: build (W=1), style, KUnit, tc plug-in, selftests
#
# KDIR defaults to the Debian headers that `make deps` installed, resolved
# from the linux-headers-amd64 meta-package (Debian 12's 6.1 LTS); KVER=6.12
# (or the full 6.12.118+deb12-amd64) builds for the 6.12 LTS, KVER or KDIR
# for any other kernel.

KVER	?= $(shell scripts/kver 2>/dev/null)
# a supported series by its short name: the version Debian's headers have
ifneq ($(filter 6.1 6.12,$(KVER)),)
override KVER := $(shell scripts/kver $(KVER))
export KVER
endif
KDIR	?= /lib/modules/$(KVER)/build
ifeq ($(wildcard $(KDIR)),)
KDIR	:= /usr/src/linux-headers-$(KVER)
endif
DESTDIR	?=
PREFIX	?= /usr

MODULES	:= sch_lossless/sch_lossless.ko dcqcn_cc/dcqcn_cc.ko

.PHONY: all modules tc tools sparse install deps check check-debug kunit demo bench clean \
	help print-kdir aiecn-experiment aiecn-train

all: modules tc tools

modules:
	@test -d "$(KDIR)" || { echo "no kernel headers at '$(KDIR)': run 'make deps' or set KDIR"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

tc:
	$(MAKE) -C tc

# udpgen and udpsink, the selftests' UDP sender and receiver (libc only);
# aiecnd, the ECN threshold tuner (tools/aiecn)
tools:
	$(MAKE) -C selftests/tools
	$(MAKE) -C tools/aiecn

# sparse over the modules' sources (a full rebuild with C=2)
sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules

# Unsigned, as out-of-tree modules are (CONFIG_MODULE_SIG is not forced).
install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates CONFIG_MODULE_SIG_ALL= \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install
	$(if $(DESTDIR),,depmod -a $(KVER))
	$(MAKE) -C tc install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	$(MAKE) -C tools/aiecn install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

deps:
	@scripts/deps

check:
	@scripts/check

# the selftests, KUnit and a kmemleak scan in a debug kernel (KASAN,
# lockdep, kmemleak...) built once from linux-source-6.1 into the cache
check-debug:
	@scripts/check-debug

print-kdir:
	@echo $(KDIR)

# the KUnit suites in user-mode-linux, from each kernel's linux-source
kunit:
	@scripts/deps --quiet
	@for s in 6.1 6.12; do KUNIT_SOURCE=$$s scripts/kunit || exit 1; done

demo:
	@scripts/deps --quiet
	@scripts/demo

# the adaptive ECN experiment: three scenarios, static low and high
# marking against aiecnd; the table and plot go to results/aiecn
aiecn-experiment:
	@scripts/aiecn-experiment

# the sweep that trains aiecnd's model (tools/aiecn/data) and the model
# fitted on it (tools/aiecn/model/aiecn.model)
aiecn-train:
	@scripts/aiecn-experiment --train

# pktgen packets per second through pfifo_fast, prio+red, ets+red and
# lossless on a veth, in one VM; the table goes to results/bench/bench.txt
bench:
	@scripts/deps --quiet
	@scripts/bench

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tc clean
	$(MAKE) -C selftests/tools clean
	$(MAKE) -C tools/aiecn clean

help:
	@sed -n '3,12p' Makefile
