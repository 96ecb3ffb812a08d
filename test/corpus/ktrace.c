/* ktrace: the GPU time of a whole program's kernels, for the steady-state
 * measurement of the corpus (corpus_gpu.py --ktrace-rounds).
 *
 * A CUDA injection library: the driver loads it when the program initialises
 * CUDA (CUDA_INJECTION64_PATH=/path/ktrace.so) and calls
 * InitializeInjection(), which turns on CUPTI's activity records for kernels,
 * memory copies and memsets.  At exit (and before a context is destroyed, so
 * that cudaDeviceReset loses nothing) the records are flushed, and the totals
 * are written to the file $TFUSE_KTRACE_OUT, one tab-separated line each:
 *
 *   kernel  NAME  LAUNCHES  TOTAL_NS  FIRST_NS   (FIRST_NS: its earliest launch)
 *   memcpy  COUNT  BYTES  TOTAL_NS
 *   memset  COUNT  BYTES  TOTAL_NS
 *   dropped RECORDS
 *
 * The times are the GPU's start-to-end times of each operation: no host-side
 * cost (module loading, the tuning runtime's dispatch) enters them.  Nothing
 * of the program's own behaviour changes.  Works with the static and the
 * shared CUDA runtime alike, since the driver loads it.
 *
 * Built by corpus.py gpu-pack against CUPTI (cupti.h, libcupti.so):
 *   cc -O2 -shared -fPIC ktrace.c -I CUDA/include -L DIR -lcupti -Wl,-rpath,'$ORIGIN'
 */
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 1024
#define BUFFER_BYTES (4u << 20)

struct kernel_total {
  char name[512];
  unsigned long long launches, total_ns, first_ns, first_start;
};

struct op_total {
  unsigned long long count, bytes, total_ns;
};

static struct kernel_total kernels[MAX_KERNELS];
static int n_kernels, overflowed;
static struct op_total copies, sets;
static unsigned long long dropped;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void add_kernel(const char *name, uint64_t start, uint64_t end) {
  unsigned long long ns = end > start ? end - start : 0;
  int i;
  if (!name)
    name = "?";
  for (i = 0; i < n_kernels; i++)
    if (strcmp(kernels[i].name, name) == 0)
      break;
  if (i == n_kernels) {
    if (n_kernels == MAX_KERNELS) {
      overflowed = 1;
      i = MAX_KERNELS - 1; /* the rest are counted under the last name */
    } else {
      n_kernels++;
      snprintf(kernels[i].name, sizeof kernels[i].name, "%s", name);
      kernels[i].first_start = start;
      kernels[i].first_ns = ns;
    }
  }
  kernels[i].launches++;
  kernels[i].total_ns += ns;
  if (start < kernels[i].first_start) {
    kernels[i].first_start = start;
    kernels[i].first_ns = ns;
  }
}

static void add_op(struct op_total *t, uint64_t bytes, uint64_t start, uint64_t end) {
  t->count++;
  t->bytes += bytes;
  t->total_ns += end > start ? end - start : 0;
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = aligned_alloc(8, BUFFER_BYTES);
  *size = *buffer ? BUFFER_BYTES : 0;
  *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid) {
  CUpti_Activity *r = NULL;
  size_t lost = 0;
  (void)size;
  pthread_mutex_lock(&lock);
  while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
    if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
      add_kernel(k->name, k->start, k->end);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)r;
      add_op(&copies, m->bytes, m->start, m->end);
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)r;
      add_op(&sets, m->bytes, m->start, m->end);
    }
  }
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &lost) == CUPTI_SUCCESS)
    dropped += lost;
  pthread_mutex_unlock(&lock);
  free(buffer);
}

static void CUPTIAPI on_resource(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void *data) {
  (void)userdata;
  (void)data;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

static void write_totals(void) {
  const char *path = getenv("TFUSE_KTRACE_OUT");
  FILE *f;
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (!path || !*path)
    return;
  f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "ktrace: cannot write %s\n", path);
    return;
  }
  pthread_mutex_lock(&lock);
  for (int i = 0; i < n_kernels; i++)
    fprintf(f, "kernel\t%s\t%llu\t%llu\t%llu\n", kernels[i].name, kernels[i].launches, kernels[i].total_ns,
            kernels[i].first_ns);
  fprintf(f, "memcpy\t%llu\t%llu\t%llu\n", copies.count, copies.bytes, copies.total_ns);
  fprintf(f, "memset\t%llu\t%llu\t%llu\n", sets.count, sets.bytes, sets.total_ns);
  fprintf(f, "dropped\t%llu\n", dropped + (unsigned long long)overflowed);
  pthread_mutex_unlock(&lock);
  fclose(f);
}

/* Called by the CUDA driver when it loads this library; non-zero means it loaded. */
int InitializeInjection(void) {
  static int done;
  CUpti_SubscriberHandle sub;
  if (done++)
    return 1;
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    fprintf(stderr, "ktrace: CUPTI activity tracing is not available\n");
    return 1;
  }
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  if (cuptiSubscribe(&sub, on_resource, NULL) == CUPTI_SUCCESS)
    cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  atexit(write_totals);
  return 1;
}
