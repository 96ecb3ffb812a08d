// Found only through -I (it is not beside the file that includes it).
#define TFUSE_DRIVER_SCALE 3.0f
