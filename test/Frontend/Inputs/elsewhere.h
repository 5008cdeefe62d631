// A differentiable function defined in another translation unit, declared
// in a header (as its defining unit must see it to export derivatives).
#pragma once
[[ct::differentiable]] double elsewhere(double x);
