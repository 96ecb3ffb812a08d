int low_query(int x);
int high_analysis(int x) { return low_query(x) + 1; }
