#include <gtest/gtest.h>
TEST(DeltaPlaceholder, Builds) { SUCCEED(); }
