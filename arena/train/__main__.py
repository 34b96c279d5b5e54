"""``python -m arena.train``: train the network of the bot ``learned`` (docs/learning.md)."""

from __future__ import annotations

from pathlib import Path

import click

from ._improve import Tuning
from ._run import Plan, run


@click.command()
@click.option("--folder", type=click.Path(path_type=Path), default=None,
              help="Where the run keeps its labels, state and CPU times [train-PRESET].")
@click.option("--preset", default="runs", show_default=True, help="The rules preset.")
@click.option("--players", default=4, show_default=True)
@click.option("--seed", default=1, show_default=True, help="The seed of everything.")
@click.option("--shards", default=20, show_default=True,
              help="Shards of matches labelled by expert (the last one held out).")
@click.option("--per-shard", default=10, show_default=True, help="Matches per shard.")
@click.option("--budget", default=200, show_default=True,
              help="expert's playouts per decision when labelling.")
@click.option("--hidden", default=256, show_default=True, help="Units per hidden layer.")
@click.option("--epochs", default=10, show_default=True)
@click.option("--batch", default=256, show_default=True)
@click.option("--rate", default=1e-3, show_default=True, help="Adam's learning rate.")
@click.option("--suits/--no-suits", default=True, show_default=True,
              help="Rename the suits of each batch at random (the rules treat them alike).")
@click.option("--features/--no-features", default=True, show_default=True,
              help="Give the network the built-ins' judgement of each legal move.")
@click.option("--steps", default=Tuning.steps, show_default=True,
              help="Steps of improvement by play against greedy (0: none).")
@click.option("--step-deals", default=Tuning.deals, show_default=True,
              help="Deals per side of an improvement step (each once per seat).")
@click.option("--held-deals", default=Tuning.held, show_default=True,
              help="Held-out deals of an improvement check.")
@click.option("--against", multiple=True, default=Tuning.against, show_default=True,
              help="An opponent of the improvement stage, filling the other seats in turn "
                   "(repeat): NAME, an installed bot, or NAME:PLAYOUTS (mc:8, a cheaper mc).")
@click.option("--league", default=Tuning.league, show_default=True,
              help="Improve against a league: keep the numbers every N steps as a snapshot, "
                   "each seat beside the network a snapshot or an --against bot (0: none).")
@click.option("--ab-every", default=Tuning.ab_every, show_default=True,
              help="Every N improvement checks (and on the cloned network), an arena ab "
                   "test against each --ab-against (0: none).")
@click.option("--ab-sets", default=Tuning.ab_sets, show_default=True,
              help="The most duplicate sets of an improvement A/B check.")
@click.option("--ab-against", multiple=True, default=Tuning.ab_against, show_default=True,
              help="A baseline of the A/B checks (repeat): NAME or NAME:PLAYOUTS.")
@click.option("--exchange", type=click.Choice(["greedy", "network"]), default="greedy",
              show_default=True,
              help="Who gives the exchange returns: greedy's rule or the cloned exchange head.")
@click.option("--backend", type=click.Choice(["numpy", "torch"]), default="numpy",
              show_default=True,
              help="Who computes the cloning's gradients: numpy, or PyTorch (the extra train).")
@click.option("--soft", default=0.0, show_default=True,
              help="Share of a move's target spread over the teacher's candidates by their "
                   "playouts (0: its choice alone).")
@click.option("--temperature", default=0.0, show_default=True,
              help="Spread --soft by the softmax of the candidates' average points at this "
                   "temperature, not by their playouts (--teacher mc; 0: by playouts).")
@click.option("--after", default=0, show_default=True,
              help="Units of the after-move head, which scores each legal move by the hand "
                   "it leaves and the cards unseen (0: none).")
@click.option("--dagger", default=0, show_default=True,
              help="Shards of the network's own play (beside --dagger-against) labelled by the "
                   "teacher and added to a second fit (DAgger; 0: none).")
@click.option("--dagger-against", multiple=True, default=("mc",), show_default=True,
              help="A bot beside the network in the DAgger matches (repeat): NAME or "
                   "NAME:PLAYOUTS.")
@click.option("--teacher", type=click.Choice(["expert", "guided", "mc"]), default="expert",
              show_default=True,
              help="Who labels the matches at --budget: expert, guided (expert whose "
                   "search a network guides: expert iteration), or mc (--budget rounds of "
                   "playouts).")
@click.option("--teacher-weights", type=click.Path(path_type=Path), default=None,
              help="The network guiding --teacher guided [the preset's shipped one].")
@click.option("--jobs", default=1, show_default=True,
              help="Processes labelling shards at once (the shards do not depend on it).")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="The network file to write [FOLDER/learned-PRESET.npz].")
def main(folder: Path | None, preset: str, players: int, seed: int, shards: int,
         per_shard: int, budget: int, hidden: int, epochs: int, batch: int, rate: float,
         suits: bool, features: bool, steps: int, step_deals: int, held_deals: int,
         against: tuple[str, ...], league: int, ab_every: int, ab_sets: int,
         ab_against: tuple[str, ...], exchange: str, backend: str, soft: float,
         temperature: float, after: int, dagger: int,
         dagger_against: tuple[str, ...], teacher: str, teacher_weights: Path | None,
         jobs: int, out: Path | None) -> None:
    """Clone expert's choices into a network the bot learned plays (numpy only)."""
    try:
        plan = Plan(folder or Path(f"train-{preset}"), preset, players, seed, shards,
                    per_shard, budget, hidden, epochs, batch, rate, suits, out, features,
                    exchange, Tuning(steps=steps, deals=step_deals, held=held_deals,
                           against=tuple(against), league=league, ab_every=ab_every,
                           ab_sets=ab_sets, ab_against=tuple(ab_against)), backend, jobs, soft,
                    dagger, tuple(dagger_against), teacher, teacher_weights, temperature,
                    after)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    # The commands' bar (rich, and the tournament's reporters beside it) loads when it runs.
    from arena.cli.progress import progress_bar

    with progress_bar(click.echo) as (line, bar):
        try:
            run(plan, line, bar)
        except ValueError as error:  # labels or a state the plan cannot use, in one line
            raise click.ClickException(str(error)) from None


if __name__ == "__main__":
    main()
