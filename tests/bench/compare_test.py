#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of compare.py's statistics (the part of the benchmark whose
mistakes would not show as a failed run)."""

import math
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402


class MedianInterval(unittest.TestCase):
    def test_order_statistics_of_textbook_sizes(self):
        # n=10: x(2)..x(9) (1-based) covers the median with 97.9%;
        # x(3)..x(8) only 89%.
        self.assertEqual(compare.median_interval(list(range(10))), (1, 8))
        # n=20: x(6)..x(15), 95.9%.
        self.assertEqual(compare.median_interval(list(range(20))), (5, 14))

    def test_unsorted_input(self):
        self.assertEqual(compare.median_interval([9, 3, 0, 7, 1, 8, 2, 6, 4, 5]), (1, 8))

    def test_coverage_is_at_least_the_confidence(self):
        for n in range(6, 60):
            low, high = compare.median_interval(list(range(n)))
            coverage = sum(math.comb(n, k) for k in range(low + 1, high + 1)) / 2 ** n
            self.assertGreaterEqual(coverage, 0.95, n)

    def test_too_few_values_give_the_whole_range(self):
        self.assertEqual(compare.median_interval([3.0, 1.0, 2.0]), (1.0, 3.0))


class Verdict(unittest.TestCase):
    def test_interval_against_one(self):
        self.assertEqual(compare.verdict(0.90, 0.99), "faster")
        self.assertEqual(compare.verdict(1.01, 1.20), "slower")
        self.assertEqual(compare.verdict(0.98, 1.02), "same within noise")


class PairedRatios(unittest.TestCase):
    def test_ratio_per_round(self):
        row = compare.Row(workload=None, count=1, times={"ddtime": [1.0, 3.0], "GNU": [2.0, 3.0]})
        self.assertEqual(compare.paired_ratios(row), [0.5, 1.0])
        self.assertEqual(compare.paired_verdict(row), "too few runs")


if __name__ == "__main__":
    unittest.main()
