// The monotone priority queue under the click segmenter's geodesic competition: it must pop
// costs in the order a binary heap would, through the pushes and pops Dijkstra's algorithm
// makes (every pushed cost at least the last popped one), ties and zero costs included.
#include "annotation/engine/RadixHeap.h"

#include <gtest/gtest.h>

#include <functional>
#include <queue>
#include <random>

using delineate::annotation::RadixHeap;

TEST(RadixHeap, PopsTheCheapestFirstThroughDijkstrasPushesAndPops) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> step(0.0f, 40.0f);
  std::uniform_int_distribution<int> pushes(0, 6);
  RadixHeap heap;
  std::priority_queue<float, std::vector<float>, std::greater<float>> reference;
  for (std::uint32_t v = 0; v < 5; ++v) {
    heap.push(0.0f, v);
    reference.push(0.0f);
  }
  std::size_t popped = 0;
  while (!reference.empty() && popped < 2000000) {
    ASSERT_FALSE(heap.empty());
    ASSERT_EQ(heap.size(), reference.size());
    const auto [cost, voxel] = heap.pop();
    ASSERT_EQ(cost, reference.top()) << "pop " << popped;
    reference.pop();
    ++popped;
    // Each pop pushes a few neighbours at its cost plus a step; some steps are zero (ties).
    for (int k = pushes(random) - (popped > 50000 ? 3 : 0); k > 0; --k) {
      const float next = cost + (k == 1 ? 0.0f : step(random));
      heap.push(next, voxel + std::uint32_t(k));
      reference.push(next);
    }
  }
  EXPECT_GT(popped, 1000u);
  EXPECT_TRUE(heap.empty());
}

TEST(RadixHeap, KeepsTheVoxelWithItsCost) {
  RadixHeap heap;
  heap.push(2.5f, 25);
  heap.push(0.5f, 5);
  heap.push(1e6f, 7);
  heap.push(1.5f, 15);
  EXPECT_EQ(heap.pop(), std::make_pair(0.5f, std::uint32_t(5)));
  heap.push(0.75f, 8);
  EXPECT_EQ(heap.pop(), std::make_pair(0.75f, std::uint32_t(8)));
  EXPECT_EQ(heap.pop(), std::make_pair(1.5f, std::uint32_t(15)));
  EXPECT_EQ(heap.pop(), std::make_pair(2.5f, std::uint32_t(25)));
  EXPECT_EQ(heap.pop(), std::make_pair(1e6f, std::uint32_t(7)));
  EXPECT_TRUE(heap.empty());
}
