"""Run profiles, defined once: the papermill parameters each chapter gets under each profile.

``full`` is the paper's setting, which is each notebook's own default in its ``parameters`` cell, so it injects
nothing. ``quick`` shrinks the expensive knobs so that every chapter runs in seconds (tests and CI).
Chapters are named by their notebook file stem (``notebooks/<chapter>.py``).
"""

from __future__ import annotations

PROFILES: dict[str, dict[str, dict]] = {
    "full": {},
    "quick": {
        "00_why_pairing_matters": {"n_per_type": 100, "n_fig2": 400, "n_prop1_setups": 200},
        "01_synthetic_simulation": {
            "n_types": [1, 3],
            "outlier_fractions": [0.0, 0.025],
            "n_systems": [3, 10],
            "n_instances": [10, 30],
            "n_datasets": 3,
            "n_resamples": 200,
        },
        "02_real_setups": {
            "collections": ["Dialogue"],
            "n_resamples": 200,
            "subsample_sizes": [10, 50],
            "n_subsamples": 1,
            "sig_max_pairs": 5,
            "table3_draws": 2,
            "fig4_paper_draws": 3,
            "sig_paper_draws": 20,
            "sig_paper_pairs": 40,
            "iia_sizes": [5, 10],
            "fig5_setup": ["Dialogue", "tc", "BLEU"],
        },
        "03_wmt_stability": {"n_bootstrap": 2},
        "04_favoritism": {"n_resamples": 50},
        "05_global_vs_pairwise": {"n_trials": 50, "tie_step": 0.5, "n_random_repeats": 20, "n_stability_trials": 10,
                                  "stability_step": 250, "n_fig3_repeats": 50, "n_llmfao_trials": 10,
                                  "llmfao_tie_step": 0.5, "split_half_shares": [0.25, 0.5],
                                  "stability_tie_probabilities": [0.5]},
        "09_your_own_scores": {"n_resamples": 200, "n_resamples_sequential": 20},
    },
}


def parameters_for(profile: str, chapter: str) -> dict:
    """Parameters injected into ``chapter`` under ``profile`` (unknown profile: ValueError)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {sorted(PROFILES)}")
    return dict(PROFILES[profile].get(chapter, {}))
