/*
 * dcs: Direct Coulomb Summation. For every point (i, j) of a 2D slice k of
 * a regular 3D lattice with spacing gridspacing, add the potential of all
 * atoms, energy = sum_n w_n / |p - a_n|, to the slice's energy grid. One
 * thread per lattice point, 16x16 blocks, a 2D grid of nx/16 x ny/16 blocks
 * per slice; the atoms sit in __constant__ memory in chunks of 2048.
 *
 * Origin: the "Initial Improvements" kernel of the DCS case study in
 * seeds/mriq-dcs-thread-fusion.txt (before its thread fusion): the host
 * replaces each atom's z by (z_slice - z_atom)^2, the kernel uses rsqrt and
 * pre-fetches the grid value it accumulates onto. Differences from the seed:
 * rsqrtf is spelled out; the flattened index uses the number of points per
 * row and per slice, gridDim.x*blockDim.x and gridDim.y*blockDim.y (the seed
 * writes gridDim.x alone, which only works for one block per row); the host
 * handles a last partial chunk of atoms.
 *
 * Annotation: `#pragma tfuse coarsen` (block mode along x by default).
 * Applies: block mode along x and along y. The kernel reads gridDim.x and
 * gridDim.y, so a coarsened kernel must see the original grid extents; the
 * odd size below has 37 x 19 blocks, along x and y a multiple of no K in
 * 2..8.
 *
 * Data: atoms at fixed-seed LCG positions inside the slice, each offset by
 * at least a quarter of the spacing from every lattice line in x and y (so
 * no distance is 0), charges in [-1, 1). egrid is read and written: it
 * starts as LCG values in [-1, 1) (uploaded before the run), so an element
 * the kernel does not write keeps a value that fails the check.
 *
 * Check: CPU reference in double, |gpu - ref| <= 1e-3 * (|e0| + sum_n
 * |w_n| / r_n) per point: relative to the sum of the magnitudes of the
 * terms, since charges of both signs cancel. Most of the tolerance is for
 * the lattice coordinate x = gridspacing * i, which the kernel rounds to
 * float (or, with FMA contraction, folds unrounded into x - atom.x): half
 * an ulp of x changes the term of an atom 0.035 away by up to 2e-4 of its
 * value for x < 256, 4.4e-4 for x < 512 (nx, ny <= 4096 at spacing 0.1).
 * The rest (rsqrtf's 2 ulp, float accumulation) is far smaller. Measured
 * on an H200: max 1.4e-5 at 592 x 304 x 256 atoms, 5.7e-5 at 2048^2 x
 * 2048 atoms. Builds with and without -fmad=false differ in the last bits;
 * compare two builds byte for byte only when both use the same flags.
 *
 * Usage: dcs [nx] [ny] [natoms] [nz] [--check] [--check-sample S]
 *            [--dump FILE] [--time N]
 *   nx, ny            slice size in points, multiples of 16 (default 2048)
 *   natoms            number of atoms (default 2048)
 *   nz                number of slices (default 1)
 *   --check           compare with the CPU reference, print "dcs: PASS" or
 *                     "dcs: FAIL (...)", exit 0 or 1
 *   --check-sample S  compare only S evenly spread points (0 = all); by
 *                     default all points when the reference takes about a
 *                     second or less, else about a second's worth
 *   --dump FILE       write the raw bytes of egrid (nx*ny*nz floats) to FILE
 *   --time N          one warm-up run, then N timed runs (each run: for
 *                     each slice and atom chunk, a constant upload when the
 *                     chunk is not resident, and a launch); prints
 *                     median_ms=<x>
 *
 * Examples:
 *   nvcc -O3 -arch=sm_90 -o dcs samples/dcs/dcs.cu
 *   ./dcs 592 304 256 --check              # odd size: 37 x 19 blocks
 *   ./dcs --time 10                        # 2048 x 2048 points, 2048 atoms
 *   tfuse -factor 8 samples/dcs/dcs.cu -o dcs_k8.cu
 *   tfuse -factor 4 -dim y samples/dcs/dcs.cu -o dcs_y4.cu
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cuda_runtime.h>

#include "../common/harness.h" /* CUDA_CHECK, LCG, options, timing, dump */

#define BLOCK_S 16
#define CHUNK_S 2048

struct Atom {
    float x, y, z, w; /* z holds (z_slice - z_atom)^2, w the charge */
};

__constant__ Atom atom[CHUNK_S];

#pragma tfuse coarsen
__global__ void cenergy(float *egrid, float gridspacing, int k, float z, int na)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int m = gridDim.x * blockDim.x * gridDim.y * blockDim.y * k
          + gridDim.x * blockDim.x * j + i;
    float x = gridspacing * (float)i;
    float y = gridspacing * (float)j;
    float e = egrid[m];
    float energy = 0.0f;
    for (int n = 0; n < na; n++) {
        float dx = x - atom[n].x;
        float dy = y - atom[n].y;
        energy += atom[n].w * rsqrtf(dx * dx + dy * dy + atom[n].z);
    }
    egrid[m] = energy + e;
}

typedef struct {
    int nx, ny, nz, na;
    float gridspacing;
    const Atom *slice_atoms; /* host: nz * na atoms, z replaced per slice */
    float *egrid;            /* device */
    long resident;           /* slice * nchunks + chunk now in atom[], or -1 */
} Problem;

/* All launches of one run: for each slice, for each chunk of atoms, the
 * original grid nx/16 x ny/16 of 16x16 blocks. */
static void run_cenergy(void *ctx)
{
    Problem *p = (Problem *)ctx;
    dim3 dimGrid(p->nx / BLOCK_S, p->ny / BLOCK_S);
    dim3 dimBlock(BLOCK_S, BLOCK_S);
    int nchunks = (p->na + CHUNK_S - 1) / CHUNK_S;
    for (int k = 0; k < p->nz; k++) {
        float z = p->gridspacing * (float)k;
        for (int c = 0; c < nchunks; c++) {
            int count = p->na - c * CHUNK_S < CHUNK_S ? p->na - c * CHUNK_S : CHUNK_S;
            long key = (long)k * nchunks + c;
            if (p->resident != key) {
                CUDA_CHECK(cudaMemcpyToSymbol(atom, &p->slice_atoms[(size_t)k * p->na + (size_t)c * CHUNK_S],
                                              sizeof(Atom) * count));
                p->resident = key;
            }
            cenergy<<<dimGrid, dimBlock>>>(p->egrid, p->gridspacing, k, z, count);
            CUDA_CHECK(cudaGetLastError());
        }
    }
}

int main(int argc, char **argv)
{
    const char *usage = "dcs [nx] [ny] [natoms] [nz] [--check] [--check-sample S] "
                        "[--dump FILE] [--time N]";
    Options opt;
    opt.pos[0] = 2048;
    opt.pos[1] = 2048;
    opt.pos[2] = 2048;
    opt.pos[3] = 1;
    parse_options(argc, argv, &opt, 4, usage);
    long nx = opt.pos[0], ny = opt.pos[1], na = opt.pos[2], nz = opt.pos[3];
    if (nx % BLOCK_S || ny % BLOCK_S) {
        fprintf(stderr, "nx and ny must be multiples of %d\n", BLOCK_S);
        return 2;
    }
    if ((double)nx * ny * nz > 2147483647.0 || na > 100000000L) {
        fprintf(stderr, "problem too large\n");
        return 2;
    }
    long npts = nx * ny * nz;
    size_t bytes = sizeof(float) * (size_t)npts;
    const float gs = 0.1f;
    printf("dcs: nx=%ld ny=%ld nz=%ld atoms=%ld grid=(%ld,%ld) block=(%d,%d) chunks=%ld\n",
           nx, ny, nz, na, nx / BLOCK_S, ny / BLOCK_S, BLOCK_S, BLOCK_S,
           (na + CHUNK_S - 1) / CHUNK_S);

    /* Atoms: x = (ix + 0.25 + 0.5u) * gs keeps |x - i*gs| >= gs/4 for every
     * lattice index i, likewise y; z anywhere from one spacing below the
     * first slice to one above the last. */
    Atom *atoms = (Atom *)host_alloc(sizeof(Atom) * na);
    lcg_seed(7u);
    for (long n = 0; n < na; n++) {
        atoms[n].x = ((float)lcg_int(0, (int)nx - 1) + lcg_uniform(0.25f, 0.75f)) * gs;
        atoms[n].y = ((float)lcg_int(0, (int)ny - 1) + lcg_uniform(0.25f, 0.75f)) * gs;
        atoms[n].z = lcg_uniform(-1.0f, (float)nz) * gs;
        atoms[n].w = lcg_uniform(-1.0f, 1.0f);
    }
    /* Per slice, the kernel's view of the atoms: z replaced by dz^2. */
    Atom *slice_atoms = (Atom *)host_alloc(sizeof(Atom) * na * nz);
    for (long k = 0; k < nz; k++) {
        float z = gs * (float)k;
        for (long n = 0; n < na; n++) {
            Atom a = atoms[n];
            a.z = (z - atoms[n].z) * (z - atoms[n].z);
            slice_atoms[k * na + n] = a;
        }
    }
    float *e0 = (float *)host_alloc(bytes);
    for (long m = 0; m < npts; m++)
        e0[m] = lcg_uniform(-1.0f, 1.0f);
    float *egrid = (float *)host_alloc(bytes);

    Problem p;
    p.nx = (int)nx;
    p.ny = (int)ny;
    p.nz = (int)nz;
    p.na = (int)na;
    p.gridspacing = gs;
    p.slice_atoms = slice_atoms;
    p.resident = -1;
    CUDA_CHECK(cudaMalloc((void **)&p.egrid, bytes));
    CUDA_CHECK(cudaMemcpy(p.egrid, e0, bytes, cudaMemcpyHostToDevice));
    run_cenergy(&p);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(egrid, p.egrid, bytes, cudaMemcpyDeviceToHost));

    int status = 0;
    if (opt.check) {
        long count = check_count(npts, 4.0 * na + 1.0, opt.check_sample);
        long bad = 0, first = -1;
        double first_want = 0.0, max_ratio = 0.0;
        for (long s = 0; s < count; s++) {
            long m = check_index(s, count, npts);
            long k = m / (nx * ny), j = m / nx % ny, i = m % nx;
            /* The lattice coordinates exactly as the kernel forms them (one
             * float multiplication), the rest in double. */
            double x = (double)(gs * (float)i), y = (double)(gs * (float)j);
            double z = (double)(gs * (float)k);
            double want = e0[m], scale = fabs((double)e0[m]);
            for (long n = 0; n < na; n++) {
                double dx = x - atoms[n].x, dy = y - atoms[n].y, dz = z - atoms[n].z;
                double term = atoms[n].w / sqrt(dx * dx + dy * dy + dz * dz);
                want += term;
                scale += fabs(term);
            }
            double err = fabs((double)egrid[m] - want);
            double ratio = err / scale;
            if (!(ratio <= 1e-3)) { /* also catches NaN */
                if (first < 0) {
                    first = m;
                    first_want = want;
                }
                bad++;
            }
            if (ratio > max_ratio || ratio != ratio)
                max_ratio = ratio;
        }
        printf("dcs: checked %ld of %ld points, tolerance 1e-3 relative to sum |terms|, "
               "max %.3g\n", count, npts, max_ratio);
        if (bad) {
            printf("dcs: FAIL (%ld mismatches; first at %ld: got %.9g want %.9g)\n",
                   bad, first, egrid[first], first_want);
            status = 1;
        } else {
            printf("dcs: PASS\n");
        }
    }
    if (opt.dump)
        dump_file(opt.dump, egrid, bytes, NULL, 0);
    if (opt.time)
        time_launches(run_cenergy, &p, opt.time);

    CUDA_CHECK(cudaFree(p.egrid));
    free(atoms);
    free(slice_atoms);
    free(e0);
    free(egrid);
    return status;
}
