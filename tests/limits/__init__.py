"""Tests of the rate and creation limits, through the API and pages that apply them."""
