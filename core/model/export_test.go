package model

// BitEqual is bitEqual for the tests of package model_test.
var BitEqual = bitEqual
