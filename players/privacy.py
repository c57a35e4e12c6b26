"""The federation's privacy setting as the pages, the downloads, the feeds and the API read it,
and the count of its changes that keeps no page stale (docs/privacy.md)."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common.memory import process_memory
from common.replica import reading_alias
from players.models import PrivacySetting

# Every page reads the setting, some twice (the kept page's key, the list's filters): each
# process keeps it a few seconds. A change made in this process is seen at once, in the others
# within SECONDS_KEPT. The replica's copy is kept apart from the primary's: the keys of pages built
# from the replica's rows name the setting as the replica has it.
SECONDS_KEPT = 10
SETTING_IN_MEMORY = process_memory(size=2, seconds=SECONDS_KEPT)


def privacy_setting() -> PrivacySetting:
    """The setting's one row (the migration made it; made again with its defaults if gone)."""
    alias = reading_alias()
    setting = SETTING_IN_MEMORY.get(alias)
    if setting is None:
        setting = PrivacySetting.objects.filter(pk=1).first()
        if setting is None:
            setting, _ = PrivacySetting.objects.get_or_create(pk=1)
        SETTING_IN_MEMORY.set(alias, setting)
    return setting


def privacy_state(setting: PrivacySetting | None = None) -> str:
    """Words that change with whatever the public pages show of personal data (what is shown of
    an age, every name restricted): part of the keys of the pages and lists kept for visitors."""
    setting = setting or privacy_setting()
    return f"privacy:{setting.age_shown}:{setting.version}"


def privacy_changed():
    """Count a change of what the public sees of personal data (the setting, a name restricted),
    in the writer's transaction: the pages kept before it are not served again."""
    SETTING_IN_MEMORY.clear()
    privacy_setting()
    PrivacySetting.objects.filter(pk=1).update(version=F("version") + 1, changed_at=timezone.now())
    SETTING_IN_MEMORY.clear()
    # Read again by this process once the change is committed (a page read it meanwhile).
    transaction.on_commit(SETTING_IN_MEMORY.clear)
