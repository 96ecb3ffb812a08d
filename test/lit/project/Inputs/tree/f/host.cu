// No kernel at all.
int host_only(int a) { return a + 1; }
