module apnsemulator

go 1.19
