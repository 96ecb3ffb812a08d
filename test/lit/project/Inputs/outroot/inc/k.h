#pragma once
__global__ void scale(float *p, int n);
