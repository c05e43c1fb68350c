// Package cref is the yardstick for the op kernels' speed: the plain C loops
// a user would write, compiled with -O3 -march=native. Only benchmarks use it.
package cref

/*
#cgo CFLAGS: -O3 -march=native
#include <stddef.h>
static void sum_double(const double *a, double *b, size_t n) { for (size_t i = 0; i < n; i++) b[i] += a[i]; }
static void sum_float(const float *a, float *b, size_t n) { for (size_t i = 0; i < n; i++) b[i] += a[i]; }
static void sum_int(const int *a, int *b, size_t n) { for (size_t i = 0; i < n; i++) b[i] += a[i]; }
*/
import "C"

import "unsafe"

// SumDouble, SumFloat and SumInt compute b[i] += a[i] for n elements.
func SumDouble(a, b unsafe.Pointer, n int) { C.sum_double((*C.double)(a), (*C.double)(b), C.size_t(n)) }
func SumFloat(a, b unsafe.Pointer, n int)  { C.sum_float((*C.float)(a), (*C.float)(b), C.size_t(n)) }
func SumInt(a, b unsafe.Pointer, n int)    { C.sum_int((*C.int)(a), (*C.int)(b), C.size_t(n)) }
