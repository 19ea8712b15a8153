# SPDX-License-Identifier: GPL-2.0
# memcg-softlimit.  The module itself is described by ./Kbuild.
#   make [KVER=<kernel release>]   build memcg_softlimit.ko in this tree
#   make check                     build for the test matrix and run all tests
#                                  under QEMU (tests/run; see its header)
#   make check-long                every test on every row, long variants
#   make demo                      boot a guest and run tests/guest/demo.sh
#   make bench                     benchmarks under QEMU (bench/run; results
#                                  in bench/results/<date>-<size>/)
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

.PHONY: all modules clean check check-long demo bench

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	if [ -e $(KDIR)/Makefile ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build

# The memcg-softlimit command (tools/Makefile: all, install, clean).
.PHONY: tools
tools:
	$(MAKE) -C tools

check:
	tests/run

check-long:
	MSL_LONG=1 tests/run

demo:
	tests/demo

bench:
	bench/run

# ---------------------------------------------------------------------------
# Installation (docs/fleet-install.md)
#   make install          memcg_softlimit.ko for $(KVER) (default: the running
#                         kernel) into $(DESTDIR)/lib/modules/$(KVER)/updates/,
#                         signed with $(MOK_KEY) if it exists, then depmod
#                         (when DESTDIR is empty); no DKMS
#   make install-config   modprobe.d, the systemd units and their udev rule,
#                         the kernel hooks that build the DKMS module for
#                         kernels installed later (/etc/kernel/*.d), the
#                         example /etc/memcg-softlimit.conf, under $(DESTDIR);
#                         the unit runs $(SBINDIR)/memcg-softlimit (make
#                         install's, PREFIX=/usr/local)
#   make dkms-install     register this checkout with DKMS, build and install
#                         for $(KVER) (one or more kernels, default: the
#                         running one); later kernels get it from the kernel
#                         hooks (make install-config)
#   make dkms-uninstall   remove it from DKMS (every kernel) and /usr/src
#   make deb              Debian source and binary packages in build/deb/
#   make deb-changelog    debian/changelog from VERSION (for dpkg-buildpackage
#                         run by hand in this tree)
# DKMS_FLAGS is passed to every dkms command (e.g. --dkmstree=DIR
# --sourcetree=DIR --installtree=DIR --no-depmod for a private tree, as the
# tests do); DKMS_SOURCETREE is where the sources go (default /usr/src).
# ---------------------------------------------------------------------------
PKG_VERSION := $(strip $(shell cat $(CURDIR)/VERSION))
DKMS_NAME := memcg-softlimit
DKMS ?= dkms
DKMS_FLAGS ?=
DKMS_SOURCETREE ?= /usr/src
DKMS_SRC_FILES = Kbuild VERSION dkms.conf $(sort $(wildcard module/*.[ch])) \
	$(sort $(wildcard lib/*.c)) $(sort $(wildcard include/memcg_softlimit/*.h))
DKMS_DEST = $(DESTDIR)$(DKMS_SOURCETREE)/$(DKMS_NAME)-$(PKG_VERSION)

.PHONY: install install-module install-tool install-config dkms-src dkms-install dkms-uninstall deb deb-changelog

# make install signs the module with the DKMS MOK key when there is one, as
# dkms would (Secure Boot: docs/fleet-install.md), and does not sign it
# otherwise (Debian's headers have no kernel signing key).
MOK_KEY ?= /var/lib/dkms/mok.key
MOK_CERT ?= /var/lib/dkms/mok.pub
INSTALL_SIGN = $(if $(and $(wildcard $(MOK_KEY)),$(wildcard $(MOK_CERT))),\
	'cmd_sign=scripts/sign-file $$(CONFIG_MODULE_SIG_HASH) $(MOK_KEY) $(MOK_CERT) $$@',\
	'cmd_sign=:' 'quiet_cmd_sign=')

# make install: the module (install-module) and the memcg-softlimit command
# with its man page (install-tool: PREFIX=/usr/local, DESTDIR; needs
# libtracefs-dev, libtraceevent-dev, libtracecmd-dev).
install: install-module install-tool

install-tool:
	$(MAKE) -C tools install

install-module: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=updates \
		DEPMOD=/bin/true $(INSTALL_SIGN) modules_install
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

# Where make install puts the command (tools/Makefile's default).
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin

install-config:
	install -D -m 0644 packaging/modprobe.d/memcg-softlimit.conf $(DESTDIR)/etc/modprobe.d/memcg-softlimit.conf
	install -D -m 0644 packaging/systemd/memcg-softlimit-load.service $(DESTDIR)/lib/systemd/system/memcg-softlimit-load.service
	# The unit runs the command where make install put it (SBINDIR).
	install -d $(DESTDIR)/lib/systemd/system
	sed 's|/usr/sbin/memcg-softlimit|$(SBINDIR)/memcg-softlimit|' packaging/systemd/memcg-softlimit.service \
		>$(DESTDIR)/lib/systemd/system/memcg-softlimit.service
	install -D -m 0644 packaging/udev/60-memcg-softlimit.rules $(DESTDIR)/lib/udev/rules.d/60-memcg-softlimit.rules
	install -D -m 0755 packaging/kernel/memcg-softlimit $(DESTDIR)/etc/kernel/postinst.d/memcg-softlimit
	install -D -m 0755 packaging/kernel/memcg-softlimit $(DESTDIR)/etc/kernel/header_postinst.d/memcg-softlimit
	if [ ! -e $(DESTDIR)/etc/memcg-softlimit.conf ]; then \
		install -D -m 0644 packaging/memcg-softlimit.conf $(DESTDIR)/etc/memcg-softlimit.conf; fi
	install -d -m 0755 $(DESTDIR)/etc/memcg-softlimit.conf.d

# The module sources as DKMS wants them, in
# $(DESTDIR)$(DKMS_SOURCETREE)/memcg-softlimit-<version>/ (the Debian
# package installs them this way too).
dkms-src:
	rm -rf $(DKMS_DEST)
	for f in $(DKMS_SRC_FILES); do install -D -m 0644 $$f $(DKMS_DEST)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(PKG_VERSION)/' dkms.conf >$(DKMS_DEST)/dkms.conf

dkms-install:
	@test -z "$(DESTDIR)" || { echo "dkms-install does not take DESTDIR (use dkms-src)"; exit 1; }
	if [ -n "$$($(DKMS) status $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION))" ]; then \
		$(DKMS) remove $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION) --all; fi
	$(MAKE) --no-print-directory dkms-src
	$(DKMS) add $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION)
	rc=0; for k in $(KVER); do \
		$(DKMS) build $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION) -k $$k && \
		$(DKMS) install $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION) -k $$k || rc=1; \
	done; exit $$rc

dkms-uninstall:
	if [ -n "$$($(DKMS) status $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION))" ]; then \
		$(DKMS) remove $(DKMS_FLAGS) -m $(DKMS_NAME) -v $(PKG_VERSION) --all; fi
	rm -rf $(DKMS_SOURCETREE)/$(DKMS_NAME)-$(PKG_VERSION)

deb:
	packaging/build-deb build/deb

deb-changelog:
	packaging/mkchangelog >debian/changelog
