// The docs page's only script: registering the element.
import "tpu-playground/element.js";
