#define R_V 461.6
    double cpv = 4. * R_V;
