module hegemonbot

go 1.19
