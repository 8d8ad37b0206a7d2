// Level of detail, the same in the 2D map and the 3D view: what is drawn of
// every entity in view (a light's reach, references, a name) only while at
// most DETAIL_LIMIT are in view; past it, only for the selection and the
// entity under the pointer, so that a big level shows its entities rather
// than a web of circles and lines over them.
export const DETAIL_LIMIT = 150;
