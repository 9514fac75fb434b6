// Package model stores a trained WKPI classifier as JSON and classifies
// new graphs with it.
//
// A model is everything needed to repeat the pipeline on a graph the
// training never saw: the feature settings (descriptor, sub-diagrams,
// Gaussian width), the persistence-image grid fitted on the training
// data, the learned weight function and kernel width, the SVM's
// coefficients and its support vectors only: their persistence diagrams,
// from which loading renders their images (format version 3), or the
// images themselves in files of versions 1 and 2. Loading checks the
// format version, every shape and every number, and says what is wrong,
// so a corrupt or hand-edited file never reaches the classifier. Prepare
// makes a model ready for many predictions: the kernel's pixel weights
// and the support images' sparse form, computed once; Model.Predict
// prepares it at every call.
package model
