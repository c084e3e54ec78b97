module scorch/bench/diffgate

go 1.19
