module seriesprog

go 1.19
