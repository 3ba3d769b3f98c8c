// report/shapes/fleet.hpp alone: the headers it includes describe every struct its output holds.
#include "report/shapes/fleet.hpp"
#include "tests/report/shapes/shape_check.hpp"

TEST_CASE("report/shapes/fleet.hpp writes its output and schema on its own", "[report][shapes]") {
    causeway::testing::check_shape_written_alone<causeway::fleet::FleetOverview>();
}
