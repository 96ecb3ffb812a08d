/* A query that climbs back into the analysis above it. */
int high_analysis(int x);
int low_query(int x) { return x > 0 ? high_analysis(x - 1) : 0; }
