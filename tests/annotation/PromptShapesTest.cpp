// Boxes, scribbles and lassos drawn on axial, coronal and sagittal slices (and on an image whose
// index axes are not the patient's) become prompts one voxel thick on the right grid axis, with
// the voxels drawn; the prompt tool reports press-drag-release, Shift for negative; the AI
// interaction keeps clicks and prompts as one list of steps that Undo takes back in order.
#include <gtest/gtest.h>

#include "annotation/ai/AiInteraction.h"
#include "annotation/ai/AiPromptTool.h"
#include "annotation/ai/PromptShapes.h"

using namespace delineate;
using namespace delineate::annotation;
using core::ai::PromptKind;

namespace {

core::ImageGeometry shapesGrid() {
  core::ImageGeometry g;
  g.size = {20, 30, 40};
  g.spacing = {0.8, 0.9, 2.0};
  g.origin = {-5, 12, 30};
  return g;
}

core::Vec3 at(const core::ImageGeometry& g, double i, double j, double k) {
  return g.indexToWorld({i, j, k});
}

struct Plane {
  const char* name;
  core::Vec3 normal;
  int axis;
};

const Plane kPlanes[] = {
    {"axial", {0, 0, 1}, 2}, {"coronal", {0, 1, 0}, 1}, {"sagittal", {1, 0, 0}, 0}};

// A point on `plane` through slice 7 of its axis, at in-plane coordinates (u, v).
core::Vec3 onPlane(const core::ImageGeometry& g, const Plane& plane, double u, double v) {
  double ijk[3];
  ijk[plane.axis] = 7;
  ijk[(plane.axis + 1) % 3] = u;
  ijk[(plane.axis + 2) % 3] = v;
  return at(g, ijk[0], ijk[1], ijk[2]);
}

}  // namespace

TEST(PromptShapes, ABoxIsOneSliceThickOnTheAxisOfItsPlane) {
  const core::ImageGeometry g = shapesGrid();
  for (const Plane& plane : kPlanes) {
    const auto p =
        boxPrompt(g, onPlane(g, plane, 3.2, 4.6), onPlane(g, plane, 9.4, 12.0), plane.normal, true);
    ASSERT_TRUE(p) << plane.name;
    EXPECT_EQ(p->kind, PromptKind::Box);
    EXPECT_EQ(p->sliceAxis(), plane.axis) << plane.name;
    EXPECT_EQ(p->box.lo[plane.axis], 7u) << plane.name;
    EXPECT_EQ(p->box.lo[(plane.axis + 1) % 3], 3u) << plane.name;
    EXPECT_EQ(p->box.hi[(plane.axis + 1) % 3], 10u) << plane.name;
    EXPECT_EQ(p->box.lo[(plane.axis + 2) % 3], 5u) << plane.name;
    EXPECT_EQ(p->box.hi[(plane.axis + 2) % 3], 13u) << plane.name;
  }
  // Dragged past the image's edge: clipped; wholly outside: none.
  const auto clipped = boxPrompt(g, at(g, -5, -5, 3), at(g, 4, 4, 3), {0, 0, 1}, false);
  ASSERT_TRUE(clipped);
  EXPECT_FALSE(clipped->positive);
  EXPECT_EQ(clipped->box.lo, (core::Size3{0, 0, 3}));
  EXPECT_FALSE(boxPrompt(g, at(g, -9, -9, 3), at(g, -4, -4, 3), {0, 0, 1}, true));
}

TEST(PromptShapes, ALassoIsFilledAndAScribbleIsAThickStrokeOnEveryPlane) {
  const core::ImageGeometry g = shapesGrid();
  for (const Plane& plane : kPlanes) {
    // A square outline from (2, 2) to (10, 10) in the plane: the voxels strictly inside fill.
    const std::vector<core::Vec3> square{onPlane(g, plane, 2, 2), onPlane(g, plane, 10, 2),
                                         onPlane(g, plane, 10, 10), onPlane(g, plane, 2, 10)};
    const auto lasso = lassoPrompt(g, square, plane.normal, true);
    ASSERT_TRUE(lasso) << plane.name;
    EXPECT_EQ(lasso->sliceAxis(), plane.axis) << plane.name;
    const auto voxels = lasso->maskVoxels();
    EXPECT_GE(voxels.size(), 49u) << plane.name;  // 7 x 7 at least, 9 x 9 at most
    EXPECT_LE(voxels.size(), 81u) << plane.name;
    for (const core::Size3& v : voxels) {
      EXPECT_EQ(v[plane.axis], 7u) << plane.name;
    }
    // A straight stroke 10 voxels long, 2 thick.
    const auto scribble = scribblePrompt(g, {onPlane(g, plane, 4, 5), onPlane(g, plane, 14, 5)},
                                         plane.normal, false, 2);
    ASSERT_TRUE(scribble) << plane.name;
    EXPECT_EQ(scribble->sliceAxis(), plane.axis) << plane.name;
    EXPECT_FALSE(scribble->positive);
    // A 2 x 2 brush along 11 voxel centres: 12 x 2.
    EXPECT_EQ(scribble->maskVoxels().size(), 24u) << plane.name;
  }
}

TEST(PromptShapes, TheSliceAxisFollowsTheGridNotThePatient) {
  // Index axis 0 runs along patient z, axis 2 along x: an axial view's slices are along i.
  core::ImageGeometry g = shapesGrid();
  g.direction = {0, 0, 1, 0, 1, 0, 1, 0, 0};
  EXPECT_EQ(sliceAxisFor(g, {0, 0, 1}), 0);
  const auto p = boxPrompt(g, at(g, 6, 3, 2), at(g, 6, 9, 12), {0, 0, 1}, true);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->sliceAxis(), 0);
  EXPECT_EQ(p->box.lo, (core::Size3{6, 3, 2}));
  EXPECT_EQ(p->box.hi, (core::Size3{7, 10, 13}));
}

TEST(AiPromptTool, PressDragReleaseReportsTheShapeShiftMakesItNegative) {
  std::vector<core::Vec3> got;
  bool positive = true;
  AiPromptTool tool(
      PromptShape::Lasso,
      [&](PromptShape shape, const std::vector<core::Vec3>& points, const core::Vec3&, bool pos) {
        EXPECT_EQ(shape, PromptShape::Lasso);
        got = points;
        positive = pos;
      });
  EXPECT_EQ(tool.id(), "tool.aiLasso");
  PointerEvent e;
  e.action = PointerAction::Press;
  e.shift = true;
  e.world = {1, 2, 3};
  EXPECT_TRUE(tool.pointer(e));
  e.action = PointerAction::Move;
  e.world = {4, 2, 3};
  tool.pointer(e);
  e.world = {4, 6, 3};
  tool.pointer(e);
  EXPECT_TRUE(tool.drawing());
  EXPECT_EQ(tool.points().size(), 3u);
  e.action = PointerAction::Release;
  tool.pointer(e);
  EXPECT_FALSE(tool.drawing());
  EXPECT_EQ(got.size(), 3u);
  EXPECT_FALSE(positive);
  // A box keeps its two corners; Escape (cancel) reports nothing.
  int reports = 0;
  AiPromptTool box(PromptShape::Box, [&](PromptShape, const std::vector<core::Vec3>& points,
                                         const core::Vec3&, bool) {
    ++reports;
    EXPECT_EQ(points.size(), 2u);
  });
  e.action = PointerAction::Press;
  box.pointer(e);
  box.cancel();
  e.action = PointerAction::Release;
  box.pointer(e);
  EXPECT_EQ(reports, 0);
}

TEST(AiInteraction, ClicksAndPromptsAreOneListOfStepsTakenBackInOrder) {
  const core::ImageGeometry g = shapesGrid();
  AiInteraction ai;
  core::LabelMap map("m", g);
  ai.setTarget({&map, 1});
  EXPECT_FALSE(ai.hasPositive());
  ai.addPrompt(*boxPrompt(g, at(g, 2, 2, 5), at(g, 8, 8, 5), {0, 0, 1}, true));
  EXPECT_TRUE(ai.hasPositive());
  ASSERT_TRUE(ai.addClick(g, at(g, 4, 4, 5), ClickKind::Negative));
  ai.addPrompt(*scribblePrompt(g, {at(g, 3, 3, 5), at(g, 6, 3, 5)}, {0, 0, 1}, false));
  const core::ai::InferRequest r = ai.request("m", nullptr, "Liver");
  EXPECT_EQ(r.prompts.size(), 2u);
  EXPECT_EQ(r.background.size(), 1u);
  // For a backend keeping prompts on the server: the click is a point between the two.
  const core::ai::InferRequest ordered = ai.request("m", nullptr, "Liver", true);
  ASSERT_EQ(ordered.prompts.size(), 3u);
  EXPECT_TRUE(ordered.background.empty());
  EXPECT_EQ(ordered.prompts[0].kind, PromptKind::Box);
  EXPECT_EQ(ordered.prompts[1].kind, PromptKind::Point);
  EXPECT_FALSE(ordered.prompts[1].positive);
  EXPECT_EQ(ordered.prompts[1].point, (core::Size3{4, 4, 5}));
  EXPECT_EQ(ordered.prompts[2].kind, PromptKind::Scribble);
  EXPECT_EQ(ai.lastStepName(), "Scribble prompt");
  EXPECT_EQ(ai.removeLastStep(), "Scribble prompt");
  EXPECT_EQ(ai.removeLastStep(), "Click");
  EXPECT_EQ(ai.removeLastStep(), "Box prompt");
  EXPECT_EQ(ai.removeLastStep(), "");
  EXPECT_TRUE(ai.request("m", nullptr, "").prompts.empty());
}

TEST(AiInteraction, TheSlicesWhereTheBoxedStructureEndsAreStepsOfTheirOwn) {
  const core::ImageGeometry g = shapesGrid();
  AiInteraction ai;
  core::LabelMap map("m", g);
  ai.setTarget({&map, 1});
  // No box yet: nothing to mark.
  EXPECT_FALSE(ai.markBoxEnd(2));
  ai.addPrompt(*boxPrompt(g, at(g, 2, 2, 5), at(g, 8, 8, 5), {0, 0, 1}, false));
  EXPECT_FALSE(ai.markBoxEnd(2));  // a negative box has no span
  ai.addPrompt(*boxPrompt(g, at(g, 2, 2, 5), at(g, 8, 8, 5), {0, 0, 1}, true));
  EXPECT_FALSE(ai.markBoxEnd(5));  // the box's own slice
  ASSERT_TRUE(ai.markBoxEnd(2));
  ASSERT_TRUE(ai.addClick(g, at(g, 4, 4, 5), ClickKind::Positive));
  ASSERT_TRUE(ai.markBoxEnd(8));
  EXPECT_EQ(ai.lastStepName(), "Box end slice");
  core::ai::InferRequest r = ai.request("m", nullptr, "Liver", true);
  ASSERT_EQ(r.prompts.size(), 3u);  // the marks add no prompt: they change the box
  EXPECT_EQ(r.prompts[1].spanLo, 2u);
  EXPECT_EQ(r.prompts[1].spanHi, 9u);
  EXPECT_FALSE(r.prompts[0].spanLo);
  // A second mark on the same side moves that end; undo puts the first back.
  ASSERT_TRUE(ai.markBoxEnd(7));
  EXPECT_EQ(ai.request("m", nullptr, "").prompts[1].spanHi, 8u);
  EXPECT_EQ(ai.removeLastStep(), "Box end slice");
  EXPECT_EQ(ai.request("m", nullptr, "").prompts[1].spanHi, 9u);
  EXPECT_EQ(ai.removeLastStep(), "Box end slice");
  r = ai.request("m", nullptr, "");
  EXPECT_EQ(r.prompts[1].spanLo, 2u);
  EXPECT_FALSE(r.prompts[1].spanHi);
  EXPECT_EQ(ai.removeLastStep(), "Click");
  EXPECT_EQ(ai.removeLastStep(), "Box end slice");
  EXPECT_FALSE(ai.request("m", nullptr, "").prompts[1].spanLo);
  EXPECT_EQ(ai.removeLastStep(), "Box prompt");
  // Another segment has its own box and marks; there a 3-D box came first, which the engine
  // starts from: it has its ends already, and a later 2-D box gets none.
  core::LabelMap other("o", g);
  ai.setTarget({&other, 1});
  EXPECT_FALSE(ai.markBoxEnd(2));
  core::ai::Prompt cube;
  cube.kind = PromptKind::Box;
  cube.box = {{2, 2, 2}, {8, 8, 8}};
  ai.addPrompt(cube);
  ai.addPrompt(*boxPrompt(g, at(g, 2, 2, 5), at(g, 8, 8, 5), {0, 0, 1}, true));
  EXPECT_FALSE(ai.markBoxEnd(2));
  EXPECT_EQ(ai.lastStepName(), "Box prompt");
}
