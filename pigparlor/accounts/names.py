"""Names other players read: usernames and display names that cannot deceive.

Issue 9 item 10. A name is normalised (Unicode NFKC, runs of whitespace to one
space) and refused when it

- has a character that shows nothing or reorders the page (``pigparlor.usertext``);
- has no letter or digit at all;
- mixes scripts inside one word (``аlice`` with a Cyrillic а), except the
  combinations Unicode's "highly restrictive" level allows (Latin with Han and
  the Japanese kana, with Han and Bopomofo, or with Han and Hangul);
- reads as a platform name: a reserved word (``admin``, ``moderator``, ``guest``…) or a
  bot's name (the tables call bots "Sensible bot 2"; a name whose last word is
  "bot" or a bot kind's "sensiblebot" is refused, "Talbot" is not), whatever
  stands for the number: a digit of any script (``٣``) or a letter that reads
  as one (Cyrillic ``З``, ezh ``Ʒ``, ``O``, ``l``);
- looks like another player's username or display name: their *skeletons* are
  equal. A skeleton is the name after NFKC, case folding and mapping every
  confusable character to its prototype with the confusables table of Unicode
  TR39 (via ``confusable_homoglyphs``), so ``Ana``, ``АNA`` and ``ana`` share one;
  letter pairs that read as one letter (``vv`` as ``w``, ``rn`` as ``m``) too.

The skeletons of every user's names are kept in ``NameSkeleton`` rows
(``remember``), so the look-up is one indexed query.
"""
from __future__ import annotations

import re
import unicodedata

from confusable_homoglyphs.categories import alias as script_of
from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError

from pigparlor.usertext import invisible_characters

# Words that name the site or its staff: refused anywhere in a name.
RESERVED_WORDS = frozenset({"admin", "administrator", "moderator", "mod", "mods", "staff", "system", "sysop",
                            "pigparlor", "official", "support", "guest", "guests"})
# Whole names the pages themselves print for a seat.
RESERVED_NAMES = frozenset({"you", "empty seat", "pig parlor", "anonymous", "nobody"})
BOT_WORDS = frozenset({"bot", "bots"})
# Scripts one word may mix (Unicode TR39 "highly restrictive").
ALLOWED_MIXES = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
                 frozenset({"LATIN", "HAN", "HANGUL"}))
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})


def _prototypes() -> dict[str, str]:
    """Each confusable character → its prototype: the table lists a character
    that is not itself a prototype with exactly one homoglyph, its prototype."""
    table = {}
    for character, homoglyphs in confusables_data.items():
        if len(character) == 1 and len(homoglyphs) == 1:
            prototype = homoglyphs[0]["c"].replace("\u200e", "")  # the table wraps RTL glyphs in marks
            if prototype and prototype != character:
                table[character] = prototype
    return table


PROTOTYPES = _prototypes()
I_AND_L = str.maketrans({"i": "l"})
# Two letters that read as one where they touch (TR39 maps single characters only).
LETTER_PAIRS = (("vv", "w"), ("rn", "m"))


def normalize(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def skeleton(name: str) -> str:
    """What ``name`` looks like, whatever its case: equal skeletons are names a
    reader can confuse. Case folds first (``PIG`` is ``pig``), then the
    prototypes map (a prototype may be upper case: fold again). Upper-case I
    looks like l, but folds to i: so i and l fold together last (``Ivan`` and
    ``lvan`` collide; so, harmlessly, do ``Ai`` and ``Al``). Last, a pair of
    letters that reads as one becomes that letter (``vvalter`` is ``walter``)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    for _ in range(2):  # a mapped character may fold, and its folding may map again
        text = "".join(PROTOTYPES.get(character, character) for character in text).casefold()
    text = text.translate(I_AND_L)
    for pair, letter in LETTER_PAIRS:
        text = text.replace(pair, letter)
    return " ".join(text.split())


def _digit_like_skeletons() -> frozenset[str]:
    """The skeletons of what reads as a digit: each digit's own (``o`` for 0,
    ``l`` for 1) and those of the characters whose prototype is a digit (Cyrillic
    ``З`` and ezh ``Ʒ`` are 3s, but fold to ``з`` and ``ʒ`` before they map)."""
    digits = set("0123456789")
    return frozenset({skeleton(digit) for digit in digits} | {
        skeleton(character) for character, prototype in PROTOTYPES.items()
        if prototype in digits or PROTOTYPES.get(prototype) in digits})


DIGIT_LIKE_SKELETONS = _digit_like_skeletons()


def looks_like_digit(character: str) -> bool:
    """A digit of any script (``٣``, ``३``), or a letter that reads as one."""
    return unicodedata.category(character) == "Nd" or skeleton(character) in DIGIT_LIKE_SKELETONS


def _words(name: str, *, number_like: bool = False) -> list[str]:
    """The skeletons of ``name``'s words, split at anything not a letter or digit,
    without the digits at their ends (``Admin_2`` → ``admin``). ``number_like``:
    a word's end also loses whatever reads as a digit, so "Sensible bot З" is
    "Sensible bot 3", the tables' name for a bot."""
    words = []
    for word in re.split(r"[\W_]+", unicodedata.normalize("NFKC", name).casefold()):
        word = word.strip("0123456789")
        while number_like and word and looks_like_digit(word[-1]):
            word = word[:-1]
        if word:
            words.append(skeleton(word))
    return words


RESERVED_WORD_SKELETONS = {skeleton(word): word for word in RESERVED_WORDS}
RESERVED_NAME_SKELETONS = {"".join(_words(name)): name for name in RESERVED_NAMES}
BOT_WORD_SKELETONS = frozenset(map(skeleton, BOT_WORDS))


def _mixed_scripts(name: str) -> set[str] | None:
    for word in name.split():
        scripts = {script_of(character) for character in word} - NEUTRAL_SCRIPTS
        if len(scripts) > 1 and not any(scripts <= allowed for allowed in ALLOWED_MIXES):
            return scripts
    return None


def _reads_as_the_sites(name: str) -> str | None:
    words = _words(name)
    reserved = [RESERVED_WORD_SKELETONS[word] for word in words if word in RESERVED_WORD_SKELETONS]
    reserved.append(RESERVED_NAME_SKELETONS.get("".join(words)))
    if any(reserved):
        return f"“{next(filter(None, reserved))}” is reserved for the site: choose another name."
    words = _words(name, number_like=True)
    if words and (words[-1] in BOT_WORD_SKELETONS or words[-1] in _bot_names()):
        return "Names that end in “bot” are kept for the site's bots: choose another name."
    return None


def _bot_names() -> set[str]:
    """The tables name a bot "<Kind> bot <n>" ("Sensible bot 2"); written as one
    word that is "sensiblebot". Every registered game's kinds, and the stand-in."""
    from games.core.registry import all_games
    from pigparlor.tables.botdriver import STAND_IN

    kinds = {STAND_IN, "stand-in", "standin"} | {kind for game in all_games() for kind in game.bots}
    return {skeleton(re.sub(r"[\W_]+", "", kind) + "bot") for kind in kinds}


def problem(name: str) -> str | None:
    """Why ``name`` (already normalised) may not be used, or None."""
    hidden = invisible_characters(name)
    if hidden:
        return f"Names cannot contain invisible or control characters ({hidden[0]})."
    if not any(unicodedata.category(character)[0] in "LN" for character in name):
        return "A name needs at least one letter or digit."
    scripts = _mixed_scripts(name)
    if scripts:
        return (f"A word of a name cannot mix alphabets ({' and '.join(sorted(s.title() for s in scripts))}): "
                "letters from another alphabet can imitate someone else's name.")
    return _reads_as_the_sites(name)


def check(name: str, *, user=None) -> str:
    """``name`` normalised, or ``ValidationError`` if it may deceive. ``user``
    is the one choosing it: their own other name does not count as taken."""
    from pigparlor.accounts.models import NameSkeleton

    name = normalize(name)
    reason = problem(name)
    if reason:
        raise ValidationError(reason, code="deceptive_name")
    others = NameSkeleton.objects.filter(skeleton=skeleton(name))
    if user is not None and user.pk is not None:
        others = others.exclude(user=user)
    if others.exists():
        raise ValidationError("That name is taken, or looks too much like another player's name.", code="name_taken")
    return name


def remember(user) -> None:
    """Keep ``user``'s ``NameSkeleton`` rows equal to the skeletons of their
    username and display name (called whenever either is saved)."""
    from pigparlor.accounts.models import NameSkeleton, Profile

    display = Profile.objects.filter(user=user).values_list("display_name", flat=True).first() or ""
    wanted = {skeleton(name) for name in (user.get_username(), display) if name}
    NameSkeleton.objects.filter(user=user).exclude(skeleton__in=wanted).delete()
    have = set(NameSkeleton.objects.filter(user=user).values_list("skeleton", flat=True))
    NameSkeleton.objects.bulk_create(NameSkeleton(user=user, skeleton=value) for value in wanted - have)
