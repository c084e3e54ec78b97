module scorchlines

go 1.19
