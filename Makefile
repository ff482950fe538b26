# SPDX-License-Identifier: GPL-2.0-or-later
# make                 build ./lrubench
# make check           unit tests (cmocka) + integration tests (root, real kernel)
# make install         PREFIX=/usr/local DESTDIR= (the helper goes to LIBEXECDIR)
# make deb             the Debian package of HEAD, in build/deb/ (debian/)
# make WERROR=1        warnings are errors
# make SANITIZE=1      ASan + UBSan (objects kept apart in build/san)
# make fuzz            libFuzzer harnesses (fuzz/fuzz.mk, bench/fuzz)
VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/lrubench
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/lrubench
CC ?= cc
PKG_CONFIG ?= pkg-config
# lrubench links only what every command needs; the helper program
# lrubench-net (src/net/: downloads, sha256, extraction, cpio) links the
# heavy libraries, so `compare` or `--version` never load them (src/net/main.c
# says why). The unit tests link both sides.
MAIN_PKGS := json-c inih
NET_PKGS := libcurl libarchive libcrypto
PKGS := $(MAIN_PKGS) $(NET_PKGS)

# The tree lrubench is built from, as `git describe` names it ("" outside a
# git checkout, e.g. a release tarball): run.json records it beside VERSION,
# so compare can tell two builds of one version apart. Only
# src/core/version.o depends on it, through a stamp rewritten when it changes.
GIT_DESCRIBE := $(shell git -C "$(CURDIR)" describe --always --dirty --tags 2>/dev/null)

CFLAGS ?= -O2 -g
XCFLAGS := -std=gnu11 -Wall -Wextra -Wformat=2 -Wshadow -Wno-missing-field-initializers \
	-D_GNU_SOURCE -DLRUBENCH_VERSION='"$(VERSION)"' -DLRUBENCH_DATADIR='"$(DATADIR)"' \
	-DLRUBENCH_LIBEXECDIR='"$(LIBEXECDIR)"' \
	-Isrc $(shell $(PKG_CONFIG) --cflags $(PKGS))
MAIN_LIBS := $(shell $(PKG_CONFIG) --libs $(MAIN_PKGS)) -lm -lpthread
NET_LIBS := $(shell $(PKG_CONFIG) --libs $(NET_PKGS)) -lpthread
LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm -lpthread
BUILD := build/rel
ifeq ($(WERROR),1)
XCFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
XCFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
BUILD := build/san
endif

# Every .c below src/ is part of a program: src/net/ of the helper
# lrubench-net, the rest of lrubench. The helper takes what it needs of
# src/core/ from an archive (the linker picks the objects). The two mains
# aside, every object is also linked into the unit tests
# (docs/ARCHITECTURE.md, "Layout").
SRCS := $(sort $(shell find src -name '*.c'))
NET_SRCS := $(filter src/net/%,$(SRCS))
MAIN_SRCS := $(filter-out $(NET_SRCS),$(SRCS))
LIB_SRCS := $(filter-out src/main.c src/net/main.c,$(SRCS))
OBJS := $(patsubst %.c,$(BUILD)/%.o,$(SRCS))
MAIN_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(MAIN_SRCS))
NET_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(NET_SRCS))
CORE_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter src/core/%,$(SRCS)))
LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRCS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(patsubst tests/helpers/%.c,$(BUILD)/helpers/%,$(HELPER_SRCS))

all: lrubench lrubench-net

# ./lrubench is the build of the last make: after `make SANITIZE=1` a plain
# make puts the release build back even though it is older (cmp, not dates:
# bench/ timed the sanitizer build otherwise)
lrubench lrubench-net: %: $(BUILD)/% FORCE
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@; }   # a running ./lrubench keeps its inode

$(BUILD)/lrubench: $(MAIN_OBJS)
	$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJS) $(MAIN_LIBS)

$(BUILD)/lrubench-net: $(NET_OBJS) $(BUILD)/core.a
	$(CC) $(LDFLAGS) -o $@ $(NET_OBJS) $(BUILD)/core.a $(NET_LIBS)

$(BUILD)/core.a: $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $(CORE_OBJS)

# -MMD -MP: each object depends on the headers it really includes.
$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJS:.o=.d)

$(BUILD)/git-describe.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(GIT_DESCRIBE)' | cmp -s - $@ || echo '$(GIT_DESCRIBE)' > $@

$(BUILD)/src/core/version.o: $(BUILD)/git-describe.stamp
$(BUILD)/src/core/version.o: XCFLAGS += -DLRUBENCH_GIT_DESCRIBE='"$(GIT_DESCRIBE)"'

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJS) tests/unit/unit.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(LIBS) -lcmocka

$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(LIBS)

# helpers that drive src modules directly link with them
$(BUILD)/helpers/cgtool: tests/helpers/cgtool.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(XCFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

tests: lrubench lrubench-net $(TEST_BINS) $(HELPER_BINS)

# Unit tests need no root; integration tests run the real binary as root and
# skip (with the reason) only where the machine lacks a feature.
# optional: bench/mutate's scratch copies of the tree have no fuzz/
-include fuzz/fuzz.mk

check: tests
	@LRUBENCH_BUILD=$(BUILD) tests/run-tests

check-unit: tests
	@LRUBENCH_BUILD=$(BUILD) tests/run-tests --unit

# bench/mutate builds mutants in scratch copies and links the unit tests
# itself (a mutant changes one object; relinking is most of its cost): it
# takes the compiler, flags and objects from here, so they cannot drift.
print-unit-build:
	$(info CC=$(CC))
	$(info CFLAGS=$(CPPFLAGS) $(CFLAGS) $(XCFLAGS) -Itests/unit)
	$(info LDFLAGS=$(LDFLAGS))
	$(info LIB_OBJS=$(LIB_OBJS))
	$(info LIBS=$(LIBS) -lcmocka)
	$(info TEST_SRCS=$(TEST_SRCS))
	@:

install: lrubench lrubench-net
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)/configs/suites
	install -m 755 lrubench $(DESTDIR)$(BINDIR)/lrubench
	install -m 755 lrubench-net $(DESTDIR)$(LIBEXECDIR)/lrubench-net
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/*.7 $(DESTDIR)$(MANDIR)/man7/
	install -m 644 configs/*.conf $(DESTDIR)$(DATADIR)/configs/
	install -m 644 configs/suites/*.conf $(DESTDIR)$(DATADIR)/configs/suites/

# The nightly recipe (contrib/): the script (beside lrubench-net), the
# systemd units (the service's ExecStart pointed at LIBEXECDIR) and, unless
# one is there already, the settings file they read.
UNITDIR ?= $(PREFIX)/lib/systemd/system
install-nightly:
	install -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)/etc/default
	install -m 755 contrib/nightly/lrubench-nightly $(DESTDIR)$(LIBEXECDIR)/lrubench-nightly
	sed 's|/usr/local/libexec/lrubench/|$(LIBEXECDIR)/|' contrib/systemd/lrubench-nightly.service \
		> $(DESTDIR)$(UNITDIR)/lrubench-nightly.service
	chmod 644 $(DESTDIR)$(UNITDIR)/lrubench-nightly.service
	install -m 644 contrib/systemd/lrubench-nightly.timer $(DESTDIR)$(UNITDIR)/
	[ -e $(DESTDIR)/etc/default/lrubench-nightly ] || \
		install -m 644 contrib/systemd/lrubench-nightly.env $(DESTDIR)/etc/default/lrubench-nightly

# The Debian package (debian/, docs in debian/README.Debian), built from a
# clean copy of the committed tree (git archive HEAD) in build/deb/, so
# nothing of this tree's build or of uncommitted edits gets into it:
# build/deb/lrubench_$(VERSION)_<arch>.deb.
DEB_DIR := build/deb
deb:
	@git -C "$(CURDIR)" rev-parse --verify -q HEAD >/dev/null || \
		{ echo "make deb: needs a git checkout (in an unpacked tree: dpkg-buildpackage -us -uc -b)" >&2; exit 2; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	git -C "$(CURDIR)" archive HEAD | tar -x -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && dpkg-buildpackage -us -uc -b
	@ls $(DEB_DIR)/*.deb

clean:
	rm -rf build lrubench lrubench-net

.PHONY: all check check-unit print-unit-build tests install install-nightly deb clean FORCE
