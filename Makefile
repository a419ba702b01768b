# OpenBench convention: `make EXE=name` builds the engine as ./name; `./name bench` prints
# "Nodes searched: N" and "Nodes/second: N". Needs only cargo.
EXE ?= mysl
CARGO ?= cargo

.PHONY: all clean
all:
	$(CARGO) build --release --locked -p mysl
	cp target/release/mysl$(if $(filter Windows_NT,$(OS)),.exe,) $(EXE)

clean:
	$(CARGO) clean
