// found only through the fake nvcc's SYSTEM_INCLUDES (driver/nvcc-query.test)
