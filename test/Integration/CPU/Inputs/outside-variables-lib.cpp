// The other translation unit of outside-variables.cpp: a variable it
// defines and a function that changes it, out of the plugin's sight.
double scale = 1;
void bump_scale() { scale += 1; }
