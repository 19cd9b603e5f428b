// gl.hpp — the OpenGL API for our renderer: WebGL2 (GLES 3.0) on the web, GL 3.3 core on desktop.
// On desktop the functions come straight from libGL (Mesa/glvnd export the core profile), so
// no loader is needed for the few calls the heatmap renderer makes.
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#define GL_GLEXT_PROTOTYPES 1
#include <GL/gl.h>
#include <GL/glext.h>
#endif
