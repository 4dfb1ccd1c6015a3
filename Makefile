# rt-edf: the IRMOS real-time scheduler (EDF throttling) on Linux 6.12.
# See README.md.  Every target installs what it needs (scripts/deps.sh).
#
#   make demo            build, boot, show a reservation at work (KERNEL=stock)
#   make bench           rt-edf against stock, side by side: build/bench/results.md
#   make check           the whole verdict (KERNEL=stock, DEBUG=1, RT=1, SMP=...)
#   make kernel          build/bzImage: base + patches/
#   make kernel-stock    build/bzImage-stock: base alone, same config
#   make initramfs       build/initramfs.cpio.gz
#   make test T=share    one test program on one boot (SMP=1 by default)
#   make shell           a shell in the guest (SMP=1, KERNEL=rtedf)
#   make torture         the churn torture (DURATION=s per run, SEED=n, SMP)
#   make deb             Debian packages of the patched kernel, booted on the
#                        1-vCPU suite (DEB_CONFIG=full|small, RT=1)
#   make series-check    build, boot and checkpatch every patch in turn
#   make patches         export build/linux base..HEAD into patches/
#   make tree-reset      discard build/linux's commits, re-apply patches/
#   make clean           remove build/ (ccache is kept in build/ccache)

S := scripts
export KERNEL DEBUG RT SMP TESTS QUICK DURATION SEED CGROUP DEB_CONFIG

.PHONY: all deps kernel kernel-stock initramfs check demo bench test shell \
	patches tree-reset clean series-check torture deb

all: kernel

deps:
	@$(S)/deps.sh

kernel: deps
	@$(S)/kbuild.sh rtedf

kernel-stock: deps
	@$(S)/kbuild.sh stock

initramfs: deps
	@$(S)/initramfs.sh

check:
	@$(S)/check.sh

demo:
	@$(S)/demo.sh

bench:
	@$(S)/bench.sh

torture:
	@$(S)/torture.sh

deb:
	@$(S)/deb.sh

test:
	@SMP="$(or $(SMP),1)" TESTS="$(T)" QUICK=1 $(S)/check.sh

shell: deps
	@$(S)/kbuild.sh $(or $(KERNEL),rtedf)
	@$(S)/initramfs.sh
	@$(S)/qemu-run.sh -k build/bzImage$(if $(filter stock,$(KERNEL)),-stock) \
		-s $(or $(SMP),1) -m shell

series-check: kernel
	@$(S)/series-check.sh

patches:
	@$(S)/tree.sh export

tree-reset:
	@$(S)/tree.sh reset

clean:
	find build -mindepth 1 -maxdepth 1 ! -name ccache -exec rm -rf {} +
