# Fortran: the `mpi` and `mpi_f08` modules (compiled for this gfortran into
# build/include, where gompifort's -I finds them), their code in
# libgompifort.so, and the gompifort/gompif77/gompif90 wrappers.
# libgompifort finds libgompi next to itself ($ORIGIN): a program that only
# calls mpi_f08 procedures needs no libgompi symbol itself, so the linker's
# --as-needed drops it from the program, and RUNPATH is not transitive.
ifeq ($(origin FC),default)
FC        := gfortran
endif
FSRC      := $(BUILD)/fortran/src
FOBJ      := $(BUILD)/fortran/obj
FORTLIB   := $(BUILD)/lib/libgompifort.so.0.1.0

ifneq ($(shell command -v $(FC) 2>/dev/null),)
fortran: $(FORTLIB) $(BUILD)/bin/gompifort $(BUILD)/bin/gompif77 $(BUILD)/bin/gompif90
else
fortran:
	@echo "gompi: $(FC) not found: no mpi/mpi_f08 modules, libgompifort or gompifort (make peers installs gfortran)" >&2
endif

$(FORTLIB): $(FSRC)/mpi.f90 $(FSRC)/mpi_f08.f90 $(FSRC)/f08_shims.c $(LIBFILE) $(BUILD)/include/mpi.h
	@mkdir -p $(FOBJ) $(BUILD)/include
	cd $(FOBJ) && $(FC) -O2 -fPIC -I$(BUILD)/include -J$(BUILD)/include -c $(FSRC)/mpi.f90 -o mpi.o
	cd $(FOBJ) && $(FC) -O2 -fPIC -J$(BUILD)/include -c $(FSRC)/mpi_f08.f90 -o mpi_f08.o
	gcc -O2 -fPIC -I$(BUILD)/include -c $(FSRC)/f08_shims.c -o $(FOBJ)/f08_shims.o
	$(FC) -shared -Wl,-soname,libgompifort.so.0 -o $@ $(FOBJ)/mpi.o $(FOBJ)/mpi_f08.o $(FOBJ)/f08_shims.o \
	  -L$(BUILD)/lib -lgompi -Wl,-rpath,'$$ORIGIN'
	ln -sf libgompifort.so.0.1.0 $(BUILD)/lib/libgompifort.so.0
	ln -sf libgompifort.so.0 $(BUILD)/lib/libgompifort.so

$(BUILD)/bin/gompifort: scripts/gompicc.in
	@mkdir -p $(BUILD)/bin
	sed -e 's/@CC@/$(FC)/' -e 's/@NAME@/gompifort/' $< > $@ && chmod +x $@

$(BUILD)/bin/gompif77 $(BUILD)/bin/gompif90: $(BUILD)/bin/gompifort
	ln -sf gompifort $@
