/* class.c - defaults and field lookup of class records (class.h).
 * The registry of classes is class_registry.c. */
#include "juliet/class.h"

#include <string.h>

void jl_class_default_init(const jl_class *cls, void *derived)
{
    if (cls->default_init) cls->default_init(derived);
    else if (cls->defaults) memcpy(derived, cls->defaults, cls->size_of);
    else memset(derived, 0, cls->size_of);
}

const jl_field *jl_class_find_field(const jl_class *cls, const char *name)
{
    if (!cls || !name) return NULL;
    for (uint32_t i = 0; i < cls->field_count; i++)
        if (strcmp(cls->fields[i].name, name) == 0) return &cls->fields[i];
    return NULL;
}
