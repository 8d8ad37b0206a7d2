/* game_classes.c - field tables, defaults and registration of the example
 * game's classes (game_classes.h). */
#include "game_classes.h"

#include <juliet/class_registry.h>

static const char *const rank_names[] = {"grunt", "elite", "boss"};
static const jl_enum rank_enum = JL_ENUM(rank_names);

static const jl_field enemy_fields[] = {
    JL_FIELD(enemy, health, JL_FIELD_F32, 0),        JL_FIELD(enemy, speed, JL_FIELD_F32, 0),
    JL_FIELD(enemy, target, JL_FIELD_ENTITY_REF, 0), JL_FIELD(enemy, home, JL_FIELD_VEC3, 0),
    JL_FIELD(enemy, aggressive, JL_FIELD_BOOL, 0),   JL_FIELD(enemy, name, JL_FIELD_STRING, 0),
    JL_ENUM_FIELD(enemy, rank, &rank_enum, 0),       JL_FIELD(enemy, level, JL_FIELD_I32, 0),
    JL_FIELD(enemy, facing, JL_FIELD_QUAT, 0),       JL_FIELD(enemy, patrol, JL_FIELD_VEC2, 0),
    JL_FIELD(enemy, parent, JL_FIELD_ENTITY_REF, 0),
};
JL_DEFINE_ENTITY(enemy, "Enemy", 1, enemy_fields, NULL,
                 {.health = 100.0f,
                  .speed = 3.5f,
                  .aggressive = true,
                  .name = JL_STRING("Grunt"),
                  .level = 1,
                  .facing = {0, 0, 0, 1},
                  .patrol = {4, 4}});

static const jl_field pickup_fields[] = {
    JL_FIELD(pickup, item, JL_FIELD_INDEX, 0),    JL_FIELD(pickup, amount, JL_FIELD_F32, 0),
    JL_FIELD(pickup, respawns, JL_FIELD_BOOL, 0), JL_FIELD(pickup, glow, JL_FIELD_COLOR, 0),
    JL_FIELD(pickup, stock, JL_FIELD_U32, 0),
};
JL_DEFINE_ENTITY(pickup, "Pickup", 1, pickup_fields, NULL,
                 {.item = JL_INDEX_MAX, .amount = 1.0f, .respawns = true, .glow = {0xff, 0xd7, 0x00}, .stock = 1});

jl_status game_register_classes(void)
{
    jl_status s = jl_class_register(&enemy_class);
    return s == JL_OK ? jl_class_register(&pickup_class) : s;
}
