"""A realistic bilingual demo memory, written through the core stores.

:func:`generate` builds a new memory database the way the agent would have filled it over months of
use: sessions (older named ones, the ``global`` timeline with ``web``, ``wechat:*``, ``telegram:*`` and
``system:scheduled:*`` origins), English and Chinese conversations about software work, travel and
旺财 the dog, tool calls that succeed and fail (some linked to skills, whose counters and grades follow
from them), notes with session summaries, facts in many namespaces at many ages (pinned, custom tau,
events, validity windows, supersede chains, forgotten ones, the ``self`` facts), skills at every
maturity grade (recipes revised several times, negative skills, playbooks), calendar events (one-time
and recurring) and schedules (one-shot, interval, disabled).

Everything is written through the public store APIs (:class:`~core.timeline.RawStore`,
:class:`~core.actions.ActionStore`, :class:`~core.notes.NotesStore`, :class:`~core.facts.FactStore`,
:class:`~core.skills.SkillStore`, :class:`~core.calendar.CalendarStore`,
:class:`~core.schedules.ScheduleStore`). The one bulk path is the raw timeline:
:meth:`RawStore.append_many` in large batches with the raw-message FTS insert trigger suspended, then
one FTS ``rebuild`` (:func:`_bulk_load_messages`), all inside the same transaction.

Determinism: the same ``seed`` and the same ``now`` give the same rows, byte for byte (every random
choice comes from :class:`random.Random` streams derived from the seed, every time from ``now``, and
row ids from a seeded stream, see :func:`core.ids.seeded`). Without ``now`` the current time is used, so
the content is the same but the times differ; ``philont-memory --now T demo ...`` is reproducible.

Scale: the other layers grow with ``messages`` (:func:`default_counts`; 1,000,000 messages give
200,000 actions, 20,000 notes, 10,000 facts and 2,000 skills). The database is written under a
temporary name next to ``path`` and renamed into place when complete, so an interrupted run never
leaves a half-written database at ``path``.

:data:`BENCH_TERMS` names the search terms the benchmarks use and roughly how often they occur.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from core import ids, schema
from core.actions import ActionStore
from core.calendar import CalendarStore
from core.db import MemoryDB
from core.facts import FactStore
from core.jsutil import now_ms
from core.notes import NotesStore
from core.schedules import ScheduleStore
from core.skills import SkillStore
from core.timeline import RawStore

DAY_MS = 86_400_000
HOUR_MS = 3_600_000
MINUTE_MS = 60_000
DEFAULT_SPAN_DAYS = 182

# Search terms with a known frequency in the generated timeline, for the benchmarks. Measured share of
# all messages containing the term (1M messages, seed 0): rare_en 0.01 % (about 100 messages), zh3
# 3.5 %, zh2 6.4 % (two characters: always the LIKE path), common 24 %.
BENCH_TERMS: dict[str, str] = {
    "rare_en": "zeppelin",
    "zh3": "数据库",
    "zh2": "旺财",
    "common": "update",
}
_RARE_SENTENCE = " By the way, a zeppelin flew over the office this morning."
_RARE_P = 0.0005

ProgressFn = Callable[[str, int, int], None]


class GenerateReport(BaseModel):
    """What :func:`generate` wrote (counts of rows), and how long each phase took (seconds)."""

    path: str
    seed: int
    now: int
    span_days: int
    messages: int
    sessions: int
    actions: int
    notes: int
    facts: int
    skills: int
    calendar_events: int
    schedules: int
    seconds: float
    phases: dict[str, float] = Field(default_factory=dict)


def default_counts(messages: int) -> dict[str, int]:
    """The size of the other layers for ``messages`` messages (1M -> 200k / 20k / 10k / 2k).

    Small demos keep a floor so that every kind of row is present.
    """
    m = max(0, int(messages))
    return {
        "actions": max(200, m // 5),
        "notes": max(60, m // 50),
        "facts": max(150, m // 100),
        "skills": max(48, m // 500),
        "calendar_events": max(12, m // 20_000),
        "schedules": 9 + m // 200_000,
    }


# --------------------------------------------------------------------------------------------------
# Vocabulary and templates
# --------------------------------------------------------------------------------------------------

_VOCAB: dict[str, tuple[str, ...]] = {
    "db": ("PostgreSQL", "SQLite", "MySQL", "Redis", "ClickHouse", "DuckDB"),
    "table": ("users", "orders", "invoices", "sessions", "audit_log", "payments", "memory_facts", "events"),
    "col": ("created_at", "user_id", "status", "email", "tenant_id", "updated_at"),
    "service": ("api-gateway", "billing", "auth", "search-indexer", "notifier", "web-frontend", "scheduler"),
    "env": ("staging", "production", "canary", "dev"),
    "host": ("db-01", "db-02", "web-03", "worker-07", "edge-sg-1", "build-02"),
    "err": (
        "deadlock detected",
        "connection refused",
        "OOMKilled",
        "timeout after 30s",
        "duplicate key value violates unique constraint",
        "no space left on device",
        "SSL handshake failed",
        "relation does not exist",
        "permission denied for schema public",
    ),
    "err_zh": ("连接超时", "死锁", "磁盘空间不足", "唯一约束冲突", "权限不足", "内存溢出", "证书过期"),
    "city": ("Tokyo", "Berlin", "Lisbon", "Singapore", "San Francisco", "Osaka", "Chengdu", "Hangzhou"),
    "city_zh": ("上海", "成都", "杭州", "北京", "深圳", "东京", "大阪", "新加坡"),
    "day": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "day_zh": ("周一", "周二", "周三", "周四", "周五", "周六", "周日"),
    "month": ("March", "April", "May", "June", "July", "September", "October"),
    "file": (
        "README.md",
        "docker-compose.yml",
        "deploy/values.yaml",
        "src/db/pool.py",
        "migrations/env.py",
        "Makefile",
        ".github/workflows/ci.yml",
        "core/timeline.py",
    ),
    "lib": ("pydantic", "SQLAlchemy", "alembic", "FastAPI", "pytest", "httpx", "uvicorn", "PySide6"),
    "task": (
        "renew the TLS certificate",
        "pay the electricity bill",
        "call the vet about 旺财",
        "review the quarterly budget",
        "back up the laptop",
        "water the plants",
        "send the invoice to the client",
    ),
    "task_zh": (
        "给旺财打疫苗",
        "交物业费",
        "续签合同",
        "备份电脑",
        "给妈妈打电话",
        "提交报销单",
        "检查证书到期时间",
    ),
    "thing": (
        "the staging cluster",
        "the billing refactor",
        "the Lisbon trip",
        "the backup rotation",
        "the index on orders",
        "the on-call rota",
        "the new laptop",
    ),
    "thing_zh": ("分表方案", "部署流程", "出差行程", "备份策略", "旺财的疫苗", "那个索引", "监控告警"),
    "dog_act": (
        "chewed my slipper",
        "stole a sausage from the table",
        "learned to shake hands",
        "refused to go out in the rain",
        "barked at the delivery guy",
    ),
    "dog_act_zh": ("把拖鞋咬坏了", "偷吃了桌上的香肠", "学会了握手", "下雨天不肯出门", "对着快递员叫了半天"),
    "food": ("ramen", "dumplings", "a burrito", "hotpot", "pho", "a salad"),
    "food_zh": ("火锅", "小笼包", "牛肉面", "麻辣烫", "饺子", "烤鱼"),
    "paper": (
        "the Raft paper",
        "a survey on LSM trees",
        "the FTS5 docs",
        "the SQLite WAL notes",
        "a post about CRDTs",
    ),
}

# Each topic: English and Chinese user lines, assistant lines, and the tools its turns call.
# {n}/{m}/{k} are small numbers, {ver} a version, {mig} a migration name, {pct} a percentage.
_TOPICS: dict[str, dict[str, tuple[str, ...]]] = {
    "db": {
        "user_en": (
            'Can you check why migration {mig} fails on {db}? It says "{err}".',
            "The {table} table on {db} has grown to {n}k rows, should we add an index on {col}?",
            "Please update the {db} connection string for {env} and restart {service}.",
            "How long will {mig} lock the {table} table? We can't afford downtime on {env}.",
            "Write a rollback script for {mig}, just in case.",
            "Is it safe to run VACUUM on the {db} database during business hours?",
            "Query on {table} by {col} takes {n}00ms now, any idea why?",
        ),
        "user_zh": (
            "{mig} 这个迁移在 {db} 上跑失败了，报错「{err_zh}」，帮我看看",
            "{table} 表已经有 {n} 万行了，要不要给 {col} 加个索引？",
            "帮我 update 一下 {env} 环境的数据库连接配置，然后重启 {service}",
            "数据库迁移之前先备份一下 {table} 表，别出岔子",
            "{db} 的慢查询日志里 {table} 的查询越来越多了，怎么优化？",
            "今晚能不能做数据库迁移？{env} 那边要停机多久？",
        ),
        "asst_en": (
            'I checked {mig}: the failure comes from "{err}". I\'ll add a guard and re-run it on staging first.',
            "Done. The index on {table}({col}) is in place; the slow query went from {n}00ms to {m}ms.",
            "The migration is reversible. I wrote the rollback next to it as {mig}_down.sql.",
            "I'd avoid a full table rewrite on {table}; adding the column as nullable keeps the lock short.",
            "{db} reports {k} long-running transactions on {host}; one of them holds a lock on {table}.",
        ),
        "asst_zh": (
            "已经检查过 {mig}，问题出在「{err_zh}」。我先在 staging 上重跑一遍再上生产。",
            "索引建好了，{table} 上按 {col} 查询从 {n}00 毫秒降到了 {m} 毫秒。",
            "数据库迁移脚本已经写好回滚步骤，放在 {mig}_down.sql 里。",
            "建议先在 {env} 做一次演练，{table} 表大约需要锁 {k} 分钟。",
            "{db} 的连接池配置已经 update 过了，{service} 重启后一切正常。",
        ),
        "tools": ("shell", "readFile", "writeFile", "search_notes", "get_fact"),
    },
    "deploy": {
        "user_en": (
            "Deploy {service} {ver} to {env}, please.",
            "The {env} deploy of {service} is stuck at {pct}%, can you look?",
            "Roll back {service} on {env}, the error rate jumped after {ver}.",
            "Can we update the CI pipeline so the image is built once and promoted?",
            "Which version of {service} is running on {env} right now?",
            "Let's not deploy on Friday afternoon again. Add that to the checklist.",
        ),
        "user_zh": (
            "帮我把 {service} {ver} 部署到 {env}",
            "{env} 上的部署卡在 {pct}% 不动了，看一下怎么回事",
            "{service} 升级到 {ver} 以后错误率涨了，先回滚吧",
            "部署脚本能不能 update 一下，支持蓝绿发布？",
            "周五下午别部署了，上次出事还记得吧",
            "{host} 上的磁盘快满了，部署前先清理一下镜像",
        ),
        "asst_en": (
            "{service} {ver} is live on {env}. Health checks pass and p95 latency is {n}ms.",
            "The rollout stalled because {host} failed its readiness probe ({err}). I drained it and retried.",
            "Rolled back {service} to the previous release; the error rate is back under {k}%.",
            "I updated the pipeline: one image build, then promotion from staging to {env} by digest.",
        ),
        "asst_zh": (
            "{service} {ver} 已经部署到 {env}，健康检查通过，p95 延迟 {n} 毫秒。",
            "部署卡住是因为 {host} 的就绪探针失败（{err_zh}），已经摘掉节点重新发布。",
            "已回滚 {service}，错误率回落到 {k}% 以下。",
            "部署流水线已经 update：镜像只构建一次，按 digest 从 staging 晋升到 {env}。",
        ),
        "tools": ("shell", "webFetch", "use_skill", "readFile", "schedule_reminder"),
    },
    "debug": {
        "user_en": (
            '{service} keeps throwing "{err}" since this morning.',
            "Tests in {file} are flaky again, can you find out why?",
            "Upgrading {lib} broke the build, the traceback points at {file}.",
            "Memory usage of {service} on {host} climbs to {n} GB overnight.",
            "Why does the search return nothing for two-character Chinese words?",
        ),
        "user_zh": (
            "{service} 从早上开始一直报「{err_zh}」",
            "{file} 里的测试又不稳定了，查一下原因",
            "升级 {lib} 之后构建挂了，堆栈指向 {file}",
            "{host} 上的 {service} 内存一晚上涨到 {n} GB",
            "为什么搜两个字的中文词什么都搜不到？",
        ),
        "asst_en": (
            "Found it: {file} opens a new connection per request, so the pool runs out under load.",
            "The flaky test depends on wall-clock time; I pinned `now` in the fixture and it passes {n} runs in a row.",
            "{lib} changed a default in the new release. I pinned the old behaviour and left a comment.",
            "The leak comes from a cache without a size limit in {service}; I capped it at {k}k entries.",
        ),
        "asst_zh": (
            "找到了：{file} 每个请求都新建连接，压力一大连接池就耗尽了。",
            "这个测试依赖系统时间，我在 fixture 里固定了 now，连续跑 {n} 次都通过。",
            "{lib} 新版本改了默认值，我先固定旧行为并加了注释。",
            "trigram 索引至少要三个字符，两个字的词会走 LIKE 兜底，已经确认结果正确。",
        ),
        "tools": ("shell", "readFile", "webSearch", "search_skills", "recall_sessions"),
    },
    "travel": {
        "user_en": (
            "I'm flying to {city} on {day}, can you put together a plan?",
            "Find me a hotel in {city} near the conference venue, under {n}0 euros a night.",
            "Update my trip: the return flight moved to {month} {k}.",
            "What's the best way from the airport to the city centre in {city}?",
            "Remind me to check in online 24 hours before the {city} flight.",
        ),
        "user_zh": (
            "下周{day_zh}去{city_zh}出差，帮我排一下行程",
            "在{city_zh}找个离会场近的酒店，每晚 {n}00 元以内",
            "回程航班改到 {k} 号了，帮我 update 一下行程",
            "去{city_zh}的高铁票帮我看看，最好上午出发",
            "出差计划里加上和客户吃饭，{day_zh}晚上",
        ),
        "asst_en": (
            "Plan for {city}: arrive {day} morning, check in at the hotel, talks start at {k}pm.",
            "Three hotels fit the budget; the closest is {n} minutes' walk from the venue.",
            "Updated the itinerary and the calendar. The check-in reminder is set.",
            "From the airport, the express train takes about {n} minutes and runs every {k} minutes.",
        ),
        "asst_zh": (
            "{city_zh}行程：{day_zh}上午到达，先去酒店办入住，下午 {k} 点开会。",
            "符合预算的酒店有三家，最近的一家步行 {n} 分钟到会场。",
            "行程和日历都已经 update，值机提醒也设好了。",
            "出差计划已保存，往返高铁票都是上午的车次。",
        ),
        "tools": ("webSearch", "create_calendar_event", "store_fact", "schedule_reminder", "list_upcoming"),
    },
    "dog": {
        "user_en": (
            "旺财 {dog_act} again.",
            "When is 旺财's next vaccination due?",
            "Book the vet for 旺财 on {day} afternoon.",
            "What should I pack for 旺财 for the weekend trip?",
            "旺财 weighs {n}.{k} kg now, is that OK for a shiba?",
        ),
        "user_zh": (
            "旺财今天{dog_act_zh}",
            "旺财下次打疫苗是什么时候？",
            "帮我约一下{day_zh}下午的宠物医院，带旺财去体检",
            "旺财最近不爱吃狗粮，要不要换一个牌子？",
            "周末带旺财去{city_zh}，需要准备什么？",
        ),
        "asst_en": (
            "旺财's rabies booster is due in {month}; I added it to the calendar.",
            "The vet has a slot on {day} at {k}:30. Shall I book it?",
            "For a shiba, {n}.{k} kg is in the normal range. Keep the walks regular.",
            "Packing list for 旺财: leash, water bowl, his blanket, treats and the vaccination booklet.",
        ),
        "asst_zh": (
            "旺财的狂犬疫苗加强针在下个月，已经加到日历里了。",
            "宠物医院{day_zh}下午 {k} 点半有空位，要帮你预约吗？",
            "柴犬 {n}.{k} 公斤在正常范围内，保持每天散步就好。",
            "旺财的出行清单：牵引绳、水碗、小毯子、零食和疫苗本。",
        ),
        "tools": ("create_calendar_event", "get_fact", "store_fact", "webSearch"),
    },
    "plan": {
        "user_en": (
            "Remind me to {task} every {day}.",
            "What's on my plate this week?",
            "Make a plan for the {service} migration, with milestones.",
            "Move the review meeting to {day} {k}pm.",
            "Cancel the reminder about {task}.",
        ),
        "user_zh": (
            "提醒我{task_zh}",
            "这周有什么安排？",
            "帮我做一个 {service} 迁移的计划，分几个阶段",
            "把周会挪到{day_zh}下午 {k} 点",
            "取消那个{task_zh}的提醒",
        ),
        "asst_en": (
            "Set: I'll remind you to {task} every {day} at 9:00.",
            "This week: {k} meetings, the {service} release on {day}, and the vet appointment for 旺财.",
            "Plan: 1) dry run on staging, 2) backfill {table}, 3) switch reads, 4) switch writes, 5) clean up.",
            "Moved. Everyone on the invite will get the update.",
        ),
        "asst_zh": (
            "好的，已经设置提醒：{task_zh}。",
            "本周安排：{k} 个会议，{day_zh}发布 {service}，还有旺财的体检。",
            "计划分五步：演练、回填 {table}、切读、切写、清理。",
            "已经改到{day_zh}下午 {k} 点，参会的人都会收到 update。",
        ),
        "tools": ("schedule_reminder", "list_upcoming", "cancel_schedule", "create_calendar_event"),
    },
    "backup": {
        "user_en": (
            "Did last night's backup of {db} finish?",
            "Restore the {table} table from yesterday's backup into a scratch database.",
            "How many backups do we keep, and where?",
            "Test that the backups can actually be restored, not just that they exist.",
        ),
        "user_zh": (
            "昨晚的数据库备份成功了吗？",
            "把昨天备份里的 {table} 表恢复到一个临时库里",
            "备份保留多少份？放在哪里？",
            "数据库备份要定期做恢复演练，别只看文件在不在",
        ),
        "asst_en": (
            "Yes: the backup finished at 03:{k}0 UTC, {n}.{k} GB, quick_check ok.",
            "Restored {table} into scratch_{k}; row counts match the backup manifest.",
            "We keep the newest 28 backups in backups/, named memory-YYYYMMDDTHHmmss.sqlite.",
            "Restore drill passed: integrity_check ok and the app opened the copy read-only.",
        ),
        "asst_zh": (
            "备份成功，凌晨 3 点 {k}0 分完成，大小 {n}.{k} GB，quick_check 正常。",
            "已把 {table} 恢复到 scratch_{k}，行数和备份清单一致。",
            "保留最近 28 份备份，在 backups/ 目录下，文件名按时间排序。",
            "恢复演练通过：integrity_check 正常，数据库可以只读打开。",
        ),
        "tools": ("shell", "readFile", "get_fact", "schedule_reminder"),
    },
    "code": {
        "user_en": (
            "Review my change to {file}, I'm not sure about the error handling.",
            "Refactor {file} so the SQL lives in one place.",
            "Add type hints to {file} and make ruff happy.",
            "Update {lib} to the latest version and run the tests.",
            "Write a test for the empty-query case in the search.",
        ),
        "user_zh": (
            "帮我看看 {file} 的改动，错误处理这块不太确定",
            "把 {file} 重构一下，SQL 都集中到一个地方",
            "{file} 加上类型注解，ruff 检查要通过",
            "把 {lib} 升级到最新版，跑一下测试",
            "给搜索的空查询写个测试",
        ),
        "asst_en": (
            "Two issues in {file}: the except clause swallows the error, and the connection is never closed.",
            "Moved the queries into the store class; {file} is {n}0 lines shorter.",
            "Tests pass ({n}{k} passed). Ruff is clean.",
            "{lib} updated; one deprecation warning left, I noted it in the changelog.",
        ),
        "asst_zh": (
            "{file} 有两个问题：异常被吞掉了，连接也没有关闭。",
            "SQL 已经集中到 store 类里，{file} 少了 {n}0 行。",
            "测试全部通过（{n}{k} 个），ruff 检查干净。",
            "{lib} 已升级，还剩一个弃用警告，已记录在 changelog。",
        ),
        "tools": ("readFile", "writeFile", "shell", "search_skills", "use_skill"),
    },
    "life": {
        "user_en": (
            "Any idea for dinner? I feel like {food}.",
            "I'm reading {paper}, can you summarise the key idea?",
            "Remind me what I said about the gym schedule.",
            "I need a gift idea for my sister's birthday in {month}.",
        ),
        "user_zh": (
            "晚饭吃什么？想吃{food_zh}",
            "我在看{paper}，帮我总结一下重点",
            "下个月妈妈生日，送什么礼物好？",
            "最近睡得不好，有什么建议？",
        ),
        "asst_en": (
            "There's a good {food} place {n} minutes from you; it's open until 22:00.",
            "Key idea: keep a replicated log and let a single leader decide the order of entries.",
            "You wanted three sessions a week, Monday, Wednesday and Saturday mornings.",
            "A few ideas: a pottery class, a good fountain pen, or a weekend trip to {city}.",
        ),
        "asst_zh": (
            "附近 {n} 分钟有家不错的{food_zh}，营业到晚上十点。",
            "核心思想：用复制日志，由唯一的 leader 决定条目顺序。",
            "可以考虑陶艺课、一支好钢笔，或者周末去{city_zh}玩两天。",
            "睡前一小时少看屏幕，固定起床时间，下午别喝咖啡。",
        ),
        "tools": ("webSearch", "search_notes", "get_fact", "list_facts"),
    },
}
_TOPIC_NAMES: tuple[str, ...] = tuple(_TOPICS)
_TOPIC_WEIGHTS: tuple[int, ...] = (22, 18, 14, 10, 8, 10, 6, 8, 4)

# Phrases that make the recall trigger fire (spec §5), put in front of a user line.
_RECALL_EN: tuple[str, ...] = (
    "Remember when we talked about {thing}? ",
    "Do you still remember {thing}? ",
    "As we discussed earlier, ",
    "We talked about this before: ",
    "In our last conversation you mentioned {thing}. ",
    "Earlier you said something about {thing}. ",
)
_RECALL_ZH: tuple[str, ...] = (
    "上次讨论过的{thing_zh}，",
    "你还记得{thing_zh}吗？",
    "我们之前聊过{thing_zh}，",
    "我刚才说的那个问题，",
    "接着上次的话题，",
    "之前说的{thing_zh}是什么来着？",
)

_SYSTEM_LINES: tuple[str, ...] = (
    "[context compacted: {n}{k} earlier messages summarized]",
    "Conversation resumed after {k} hours.",
    "[memory] {k} facts updated by reflection",
    "[上下文已压缩：之前的 {n}{k} 条消息已写入摘要]",
)
_SCHEDULED_SYSTEM: tuple[str, ...] = (
    "[scheduled task {sched} fired]",
    "[定时任务 {sched} 已触发]",
)

_ACK_EN: tuple[str, ...] = ("Let me check.", "On it.", "One moment, looking into it.", "Checking now.")
_ACK_ZH: tuple[str, ...] = ("我查一下。", "好的，马上看。", "稍等，我看看。", "收到，正在处理。")

_MIG_VERBS = ("add", "drop", "backfill", "rename", "split", "index", "migrate")
_MIG_NOUNS = (
    "origin_column",
    "tenant_id",
    "orders_status",
    "user_email",
    "audit_log",
    "fts_table",
    "timezone",
)

_NUMERIC: dict[str, Callable[[random.Random], str]] = {
    "n": lambda r: str(r.randint(1, 9)),
    "m": lambda r: str(r.randint(10, 99)),
    "k": lambda r: str(r.randint(1, 9)),
    "pct": lambda r: str(r.randint(10, 95)),
    "ver": lambda r: f"v{r.randint(1, 3)}.{r.randint(0, 24)}.{r.randint(0, 9)}",
    "mig": lambda r: f"{r.randint(1, 180):04d}_{r.choice(_MIG_VERBS)}_{r.choice(_MIG_NOUNS)}",
}

# Slots chosen once per conversation, so that its turns talk about the same things.
_STICKY = (
    "db",
    "table",
    "col",
    "service",
    "env",
    "host",
    "city",
    "city_zh",
    "thing",
    "thing_zh",
    "mig",
    "ver",
)


class _Slots(dict):
    """Template values: fixed ones for a conversation, any other slot drawn at random when used."""

    __slots__ = ("_rng",)

    def __init__(self, rng: random.Random, fixed: dict[str, str]):
        super().__init__(fixed)
        self._rng = rng

    def __missing__(self, key: str) -> str:
        vocab = _VOCAB.get(key)
        if vocab is not None:
            return vocab[int(self._rng.random() * len(vocab))]
        return _NUMERIC[key](self._rng)


def _sticky_slots(rng: random.Random) -> _Slots:
    fixed: dict[str, str] = {}
    for key in _STICKY:
        vocab = _VOCAB.get(key)
        fixed[key] = vocab[int(rng.random() * len(vocab))] if vocab is not None else _NUMERIC[key](rng)
    return _Slots(rng, fixed)


def _pick(rng: random.Random, seq: tuple[str, ...]) -> str:
    return seq[int(rng.random() * len(seq))]


# --------------------------------------------------------------------------------------------------
# Tool calls (what the action log records, and what a `tool` message shows)
# --------------------------------------------------------------------------------------------------

_SHELL_CMDS: tuple[str, ...] = (
    "psql -h {host} -c 'SELECT count(*) FROM {table}'",
    "kubectl rollout status deploy/{service} -n {env}",
    "alembic upgrade head",
    "pytest -q tests/",
    "df -h /var/lib/docker",
    "sqlite3 memory.sqlite 'PRAGMA quick_check'",
    "git log --oneline -5",
    "docker image prune -f",
    "ruff check .",
)
_TOOL_OK_RATE: dict[str, float] = {"shell": 0.82, "webFetch": 0.8, "webSearch": 0.93, "writeFile": 0.92}
_TIMEZONES = ("Asia/Shanghai", "Europe/Berlin", "UTC", "Asia/Tokyo", "Europe/Lisbon")


def _tool_call(
    rng: random.Random, tool: str, s: _Slots, zh: bool, skill: str | None = None, ok: bool | None = None
) -> tuple[dict[str, Any], str, bool]:
    """``(params, result, success)`` of one plausible call of ``tool`` (``ok`` forces the outcome)."""
    if ok is None:
        ok = rng.random() < _TOOL_OK_RATE.get(tool, 0.95)
    err = s["err_zh"] if zh else s["err"]
    if tool == "shell":
        params: dict[str, Any] = {"command": _pick(rng, _SHELL_CMDS).format_map(s)}
        result = f"exit 0\n{s['m']} rows, {s['n']}.{s['k']}s" if ok else f"exit 1\nERROR: {s['err']}"
    elif tool == "readFile":
        params = {"path": s["file"]}
        result = f"{s['m']}{s['k']} lines read from {params['path']}" if ok else f"ENOENT: {params['path']}"
    elif tool == "writeFile":
        params = {"path": s["file"], "content": f"# updated for {s['service']} {s['ver']}\n"}
        result = (
            f"wrote {s['m']}0 bytes to {params['path']}"
            if ok
            else f"EACCES: permission denied, {params['path']}"
        )
    elif tool == "webSearch":
        q = (
            f"{s['db']} {s['err']}"
            if rng.random() < 0.5
            else (f"{s['city_zh']} 酒店" if zh else f"{s['city']} hotels")
        )
        params = {"query": q}
        result = f"{s['n']} results; top: {q} - docs and discussions" if ok else "search backend timeout"
    elif tool == "webFetch":
        params = {"url": f"https://status.example.com/{s['service']}"}
        result = f"200 OK ({s['m']} KB)" if ok else f"fetch failed: {s['err']}"
    elif tool == "store_fact":
        params = {
            "namespace": "travel" if rng.random() < 0.4 else "project",
            "key": f"note_{s['k']}",
            "value": s["thing"],
        }
        result = f"Stored {params['namespace']}.{params['key']}" if ok else "key must be a short slug"
    elif tool == "get_fact":
        params = {"namespace": "user", "key": _pick(rng, ("timezone", "city", "dog", "language"))}
        result = '"Asia/Shanghai"' if ok else f"Not found: user.{params['key']}"
    elif tool == "list_facts":
        params = {"namespace": _pick(rng, ("user", "project", "travel"))}
        result = f'{params["namespace"]}.city = "杭州"' if ok else ""
    elif tool == "search_notes":
        params = {"query": s["thing_zh"] if zh else s["thing"], "limit": 5}
        result = (
            f"- {s['thing']}: decided in review, see plan"
            if ok
            else 'SqliteError: fts5: syntax error near "."'
        )
    elif tool == "search_skills":
        params = {"query": s["service"], "limit": 5}
        result = (
            f"- **deploy-{s['service']}** (used {s['n']} times): deploy checklist"
            if ok
            else "No matching skills found"
        )
    elif tool == "use_skill":
        params = {"name": skill or f"deploy-{s['service']}"}
        result = f"# Skill: {params['name']}\n..." if ok else f"Skill '{params['name']}' does not exist"
    elif tool == "recall_sessions":
        params = {"query": s["thing_zh"] if zh else s["thing"], "limit": 5}
        result = (
            f"- session=global @ 2026-0{s['k']}-1{s['n']}T09:00:00.000Z (not closed)"
            if ok
            else "query must not be blank"
        )
    elif tool == "schedule_reminder":
        params = {
            "name": f"remind-{s['k']}",
            "message": s["task_zh"] if zh else s["task"],
            "interval_ms": 86_400_000,
        }
        result = (
            f"Scheduled task '{params['name']}' recurring(interval:86400000), 🔔 prompt"
            if ok
            else "at is not a valid ISO8601 string"
        )
    elif tool == "cancel_schedule":
        params = {"name": f"remind-{s['k']}"}
        result = f"Cancelled 1 task(s): {params['name']}" if ok else "No matching task found"
    elif tool == "create_calendar_event":
        params = {
            "title": f"{s['city']} trip" if not zh else f"{s['city_zh']}出差",
            "starts_at": f"2026-0{s['k']}-1{s['n']}T09:00:00Z",
            "timezone": _pick(rng, _TIMEZONES),
        }
        result = (
            f"Created calendar event '{params['title']}'" if ok else "starts_at is not a valid ISO8601 string"
        )
    elif tool == "list_upcoming":
        params = {"window_days": 7}
        result = (
            f"- [event] Weekly sync @ 2026-0{s['k']}-1{s['n']}T02:00:00.000Z (Asia/Shanghai, FREQ=WEEKLY)"
            if ok
            else "No events in the next 7 days"
        )
    else:
        params = {"goal": s["thing"]}
        result = "done" if ok else err
    if not ok and tool in ("shell", "webFetch"):
        result += f" ({err})" if zh else ""
    return params, result[:500], ok


# --------------------------------------------------------------------------------------------------
# The timeline: conversations, sessions and origins
# --------------------------------------------------------------------------------------------------

MsgRow = tuple[str, str, str, int, str | None]  # session_id, role, content, timestamp, origin
# (timestamp, session_id, tool, params, result, success, trigger, linked_skill)
ActionSpec = tuple[int, str, str, dict[str, Any], str, bool, str | None, str | None]
_MSGS_PER_TURN = 2.675  # 1 user + 1 assistant + 0.45 * (1 tool + 0.5 acknowledgement)

_SCHEDULED_REPLIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "digest": (
        (
            "Good morning! Today: {k} meetings, the {service} release, and 旺财's walk at 18:00.",
            "Daily digest: {n} new issues, {k} pull requests waiting for review, backups ok.",
        ),
        (
            "早上好！今天有 {k} 个会议，{service} 发布，晚上 6 点遛旺财。",
            "每日摘要：新增 {n} 个问题，{k} 个合并请求待审，备份正常。",
        ),
    ),
    "backup": (
        (
            "Nightly backup verified: quick_check ok, {n}.{k} GB.",
            "Backup check failed on {host}: {err}. I'll retry in an hour.",
        ),
        (
            "夜间数据库备份校验通过：quick_check 正常，{n}.{k} GB。",
            "{host} 上的备份校验失败：{err_zh}，一小时后重试。",
        ),
    ),
    "walk": (
        ("Time to take 旺财 out for a walk 🐕", "Reminder: 旺财's walk, it's {k}°C outside."),
        ("该带旺财出去散步了 🐕", "提醒：遛旺财，外面 {k} 度。"),
    ),
    "review": (
        ("Weekly review: shipped {k} changes to {service}, {n} incidents, next focus: {thing}.",),
        ("周报：{service} 上线 {k} 个改动，{n} 次故障，下周重点：{thing_zh}。",),
    ),
}
# Status prefixes of assistant replies; with the templates that say "update" anyway, about a quarter
# of all messages contain BENCH_TERMS["common"].
_STATUS_EN: tuple[str, ...] = ("Update: ", "Quick update: ", "Status update: ")
_STATUS_ZH: tuple[str, ...] = ("update 一下：", "最新进展（update）：")
_STATUS_P = 0.5
_SCHEDULED_TOOL = {"digest": "list_upcoming", "backup": "shell", "walk": None, "review": "search_notes"}


class _Timeline:
    """The planned timeline: message rows (time order), sessions, tool calls and summaries to write."""

    def __init__(self) -> None:
        self.rows: list[MsgRow] = []
        self.sessions: dict[str, list[int]] = {}  # named / scheduled session id -> [first ts, last ts]
        self.session_topic: dict[str, tuple[str, bool]] = {}
        self.origins: dict[str, list[int]] = {}  # origin id -> [first ts, last ts]
        self.origin_topic: dict[str, tuple[str, bool]] = {}
        self.tool_calls: list[ActionSpec] = []


def _chat(
    rng: random.Random, topic: str, zh: bool, turns: int, t0: int, s: _Slots
) -> tuple[list[tuple[str, str, int]], list[tuple[int, str, dict[str, Any], str, bool]]]:
    """One conversation starting at ``t0``: ``([(role, content, ts)], [(ts, tool, params, result, ok)])``."""
    spec = _TOPICS[topic]
    r = rng.random
    msgs: list[tuple[str, str, int]] = []
    calls: list[tuple[int, str, dict[str, Any], str, bool]] = []
    t = t0
    for turn in range(turns):
        lang_zh = zh if r() > 0.08 else not zh
        user = _pick(rng, spec["user_zh" if lang_zh else "user_en"]).format_map(s)
        if r() < (0.05 if turn else 0.02):
            user = _pick(rng, _RECALL_ZH if lang_zh else _RECALL_EN).format_map(s) + user
        if not lang_zh and r() < _RARE_P:
            user += _RARE_SENTENCE
        msgs.append(("user", user, t))
        t += int(3_000 + r() * 40_000)
        if r() < 0.45:
            if r() < 0.5:
                msgs.append(("assistant", _pick(rng, _ACK_ZH if lang_zh else _ACK_EN), t))
                t += int(1_000 + r() * 5_000)
            tool = _pick(rng, spec["tools"])
            params, result, ok = _tool_call(rng, tool, s, lang_zh)
            msgs.append(("tool", _tool_message(tool, ok, result), t))
            calls.append((t, tool, params, result, ok))
            t += int(1_000 + r() * 20_000)
        reply = _pick(rng, spec["asst_zh" if lang_zh else "asst_en"]).format_map(s)
        if r() < _STATUS_P:
            reply = _pick(rng, _STATUS_ZH if lang_zh else _STATUS_EN) + reply
        msgs.append(("assistant", reply, t))
        t += int(20_000 + r() * 900_000)
    return msgs, calls


def _tool_message(tool: str, ok: bool, result: str) -> str:
    return json.dumps(
        {"tool": tool, "success": ok, "result": result}, ensure_ascii=False, separators=(",", ":")
    )


def _scheduled_run(
    rng: random.Random, kind: str, name: str, zh: bool, t0: int, s: _Slots
) -> tuple[list[tuple[str, str, int]], list[tuple[int, str, dict[str, Any], str, bool]]]:
    msgs = [("system", _pick(rng, _SCHEDULED_SYSTEM).format(sched=name), t0)]
    calls: list[tuple[int, str, dict[str, Any], str, bool]] = []
    t = t0 + int(500 + rng.random() * 3_000)
    tool = _SCHEDULED_TOOL[kind]
    if tool is not None:
        params, result, ok = _tool_call(rng, tool, s, zh)
        msgs.append(("tool", _tool_message(tool, ok, result), t))
        calls.append((t, tool, params, result, ok))
        t += int(1_000 + rng.random() * 10_000)
    en, zh_lines = _SCHEDULED_REPLIES[kind]
    msgs.append(("assistant", _pick(rng, zh_lines if zh else en).format_map(s), t))
    return msgs, calls


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _day_str(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y%m%d")


def _plan_timeline(
    rng: random.Random, n: int, start: int, now: int, schedules: list[tuple[str, str, str, int, int | None]]
) -> _Timeline:
    """Plan ``n`` messages from ``start`` to ``now``.

    Phases: the oldest 35 % of the span uses named sessions (the reference before its v8 timeline);
    then everything goes to ``global``, without an origin until 60 % of the span, with one after (the
    newer reference's ``origin_session_id``). About 6 % of the conversations are runs of a schedule, in
    its own ``system:scheduled:<id>`` session. ``schedules`` holds ``(id, kind, name, created_at,
    disabled_at)``.
    """
    tl = _Timeline()
    if n <= 0:
        return tl
    span = now - start
    b1 = start + int(span * 0.35)
    b2 = start + int(span * 0.60)
    k = max(1, round(n / (2 * _MSGS_PER_TURN)))
    last_start = now - 25 * MINUTE_MS
    starts = sorted(start + int((last_start - start) * (rng.random() ** 0.8)) for _ in range(k))
    starts[-1] = last_start
    remaining = n
    named: str | None = None
    named_last = 0
    web_conv: str | None = None
    wechat_peers = ("wechat:wxid_" + _hex(rng, 12), "wechat:wxid_" + _hex(rng, 12))
    telegram_peer = f"telegram:{rng.randint(10_000_000, 999_999_999)}"
    rows = tl.rows
    i = -1
    while remaining > 0:
        i += 1
        # The planned conversations, in time order; if they fell short, a few more start anywhere.
        t0 = starts[i] if i < k else start + int((last_start - start) * rng.random())
        last = i == k - 1
        zh = rng.random() < 0.47
        s = _sticky_slots(rng)
        active = [sc for sc in schedules if sc[3] <= t0 and (sc[4] is None or t0 < sc[4])]
        if active and not last and rng.random() < 0.06:
            sid, kind, name, _c, _d = active[int(rng.random() * len(active))]
            msgs, calls = _scheduled_run(rng, kind, name, zh, t0, s)
            session = f"system:scheduled:{sid}"
            origin = session if t0 >= b2 else None
            trigger = f"schedule:{name}"
            topic = kind
        else:
            topic = _TOPIC_NAMES[_weighted_index(rng, _TOPIC_WEIGHTS)]
            want = remaining / (k - i) if i < k else 2 * _MSGS_PER_TURN
            turns = max(1, round(want / _MSGS_PER_TURN + rng.uniform(-1.0, 1.0)))
            if last:  # the newest conversation ends before `now`
                turns = min(turns, 2)
            msgs, calls = _chat(rng, topic, zh, turns, t0, s)
            trigger = "chat"
            if t0 < b1:
                if i >= k or named is None or t0 - named_last > 4 * HOUR_MS or rng.random() < 0.08:
                    named = f"sess-{_day_str(t0)}-{_hex(rng, 4)}"
                named_last = t0
                session, origin = named, None
            elif t0 < b2:
                session, origin = schema.GLOBAL_SESSION_ID, None
            else:
                session = schema.GLOBAL_SESSION_ID
                x = rng.random()
                if x < 0.6:
                    if web_conv is None or rng.random() < 0.3:
                        web_conv = "conv-" + _hex(rng, 8)
                    origin = web_conv
                elif x < 0.8:
                    origin = wechat_peers[0] if rng.random() < 0.7 else wechat_peers[1]
                elif x < 0.92:
                    origin = telegram_peer
                else:
                    origin = "system:autonomous-" + _hex(rng, 6)
                    trigger = "autonomous"
        if len(msgs) > remaining:
            msgs = msgs[:remaining]
            last_t = msgs[-1][2]
            calls = [c for c in calls if c[0] <= last_t]
        remaining -= len(msgs)
        cap = now - 1_000
        for role, content, ts in msgs:
            rows.append((session, role, content, ts if ts < cap else cap, origin))
        first_t = msgs[0][2]
        last_t = min(msgs[-1][2], cap)
        if session != schema.GLOBAL_SESSION_ID:
            span_s = tl.sessions.setdefault(session, [first_t, last_t])
            span_s[0], span_s[1] = min(span_s[0], first_t), max(span_s[1], last_t)
            tl.session_topic.setdefault(session, (topic, zh))
        if origin is not None:
            span_o = tl.origins.setdefault(origin, [first_t, last_t])
            span_o[0], span_o[1] = min(span_o[0], first_t), max(span_o[1], last_t)
            tl.origin_topic.setdefault(origin, (topic, zh))
        for ts, tool, params, result, ok in calls:
            tl.tool_calls.append((min(ts, cap), session, tool, params, result, ok, trigger, None))
    rows.sort(key=lambda row: row[3])
    return tl


def _weighted_index(rng: random.Random, weights: tuple[int, ...]) -> int:
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1


# --------------------------------------------------------------------------------------------------
# Skills: curated ones cover every grade and shape; the rest are drawn from the same plans
# --------------------------------------------------------------------------------------------------

# (slug, Chinese name, English description, Chinese description, keywords, tools)
_SKILL_KINDS: tuple[tuple[str, str, str, str, tuple[str, ...], tuple[str, ...]], ...] = (
    (
        "rotate-logs",
        "轮转日志",
        "Rotate and compress {service} logs on {host} when disk usage passes {pct}%.",
        "当 {host} 磁盘使用率超过 {pct}% 时，轮转并压缩 {service} 的日志。",
        ("logs", "disk", "日志"),
        ("shell",),
    ),
    (
        "migrate-schema",
        "数据库迁移",
        "Run a schema migration on {db}: dry run on staging first, rollback script ready.",
        "在 {db} 上做数据库迁移：先在 staging 演练，准备好回滚脚本。",
        ("migration", "schema", "数据库", "迁移"),
        ("shell", "readFile"),
    ),
    (
        "deploy-service",
        "部署服务",
        "Deploy {service} to {env} with health checks and automatic rollback.",
        "把 {service} 部署到 {env}，带健康检查和自动回滚。",
        ("deploy", "rollout", "部署"),
        ("shell", "webFetch"),
    ),
    (
        "restore-backup",
        "恢复备份",
        "Restore a table from the nightly backup into a scratch database and compare row counts.",
        "从夜间备份把表恢复到临时库并核对行数。",
        ("backup", "restore", "备份"),
        ("shell",),
    ),
    (
        "book-travel",
        "预订行程",
        "Plan a trip to {city}: flights, a hotel near the venue, calendar entries and reminders.",
        "规划去{city_zh}的行程：机票、会场附近的酒店、日历和提醒。",
        ("travel", "hotel", "出差"),
        ("webSearch", "create_calendar_event"),
    ),
    (
        "vet-visit",
        "宠物医院预约",
        "Book a vet appointment for 旺财 and put the vaccination booklet on the checklist.",
        "给旺财预约宠物医院，清单里加上疫苗本。",
        ("旺财", "vet", "疫苗"),
        ("create_calendar_event", "webSearch"),
    ),
    (
        "triage-incident",
        "故障排查",
        "Triage an incident on {service}: error rates, recent deploys and {db} locks.",
        "排查 {service} 故障：看错误率、最近的部署和 {db} 的锁。",
        ("incident", "on-call", "故障"),
        ("shell", "webFetch", "search_notes"),
    ),
    (
        "review-pr",
        "代码审查",
        "Review a pull request: error handling, tests, SQL in one place, ruff clean.",
        "审查合并请求：错误处理、测试、SQL 集中、ruff 通过。",
        ("review", "pull request", "代码审查"),
        ("readFile", "shell"),
    ),
    (
        "weekly-report",
        "整理周报",
        "Summarise the week's changes, incidents and next focus for the weekly report.",
        "汇总本周的改动、故障和下周重点，整理成周报。",
        ("weekly", "report", "周报"),
        ("search_notes", "list_facts"),
    ),
    (
        "add-index",
        "加索引",
        "Add an index on {table}({col}) concurrently and check the query plan.",
        "在 {table}({col}) 上在线加索引并确认执行计划。",
        ("index", "slow query", "索引"),
        ("shell",),
    ),
    (
        "renew-certs",
        "续期证书",
        "Renew TLS certificates before they expire and reload the proxies.",
        "证书到期前续期并重载代理。",
        ("tls", "certificate", "证书"),
        ("shell", "schedule_reminder"),
    ),
    (
        "clean-docker",
        "清理镜像",
        "Free disk space on build hosts by pruning old images and build cache.",
        "清理构建机上的旧镜像和缓存，释放磁盘空间。",
        ("docker", "disk", "清理"),
        ("shell",),
    ),
)

# (slug, English description, Chinese description, keywords)
_NEGATIVE_KINDS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "no-friday-deploys",
        "Do not deploy to production on Friday afternoons.",
        "周五下午不要发布到生产环境。",
        ("deploy", "friday", "部署"),
    ),
    (
        "no-force-push-main",
        "Never force-push to main; open a revert instead.",
        "不要强推 main 分支，用 revert。",
        ("git", "force push"),
    ),
    (
        "no-long-apologies",
        "Do not open replies with long apologies; answer first.",
        "回复不要先长篇道歉，先给答案。",
        ("tone", "reply"),
    ),
    (
        "no-secrets-in-facts",
        "Never store API keys or tokens in facts; use the credential store.",
        "不要把 API key 或 token 存进事实里，用凭据存储。",
        ("secret", "token", "凭据"),
    ),
    (
        "no-migration-without-backup",
        "Never run a migration on production without a fresh backup.",
        "生产环境做数据库迁移前必须先备份。",
        ("migration", "backup", "迁移"),
    ),
)

_PLAYBOOK_SIGS = (
    "db-migration",
    "deploy",
    "flaky-test",
    "travel-booking",
    "backup-restore",
    "incident-triage",
)
_LESSONS_EN = (
    "The migration timed out because the table lock waited behind a long transaction.",
    "Health checks passed while the queue consumer was down; check consumers too.",
    "The test depended on the wall clock and failed near midnight UTC.",
    "The hotel booking was made in the wrong time zone.",
    "The restore used yesterday's backup because the newest one failed quick_check.",
)
_LESSONS_ZH = (
    "迁移超时是因为表锁在等一个长事务。",
    "健康检查通过了，但队列消费者挂了；消费者也要检查。",
    "测试依赖系统时间，UTC 午夜附近会失败。",
    "酒店预订用错了时区。",
    "恢复用了前一天的备份，因为最新的备份没通过 quick_check。",
)
_VERIFICATIONS = (
    {"kind": "tool_result_ok", "check": "health endpoint returns 200 on every pod"},
    {"kind": "assert", "check": "quick_check returns ok and the row counts match the manifest"},
    {"kind": "compute_recheck", "check": "re-run the query plan and confirm the index is used"},
    {"kind": "assert", "check": "3 declared deliverable(s) covered: itinerary; hotel; calendar"},
)

# Outcome plans: ("o", success) outcome, ("u",) usage, ("m", grade) set_maturity, ("r", reason) revision.
_PLANS: dict[str, tuple[tuple[Any, ...], ...]] = {
    "stable": (("o", True),) * 6,
    "stable_dip": (("o", True),) * 11 + (("o", False), ("o", True)),
    "confirmed": (("o", True),) * 3,
    "confirmed_dip": (("o", True),) * 6 + (("o", False),),
    "draft": (("u",), ("o", True)),
    "draft_failed": (("o", False), ("o", True), ("o", True)),
    "deprecated": (("o", True), ("o", True), ("o", False), ("o", False), ("o", False)),
    "deprecated_ratio": (("o", True),) * 6 + (("o", False), ("o", True), ("o", False), ("o", False)),
    "playbook": (),
    "playbook_failing": (("o", False),),
    "playbook_deprecated": (("o", False), ("o", False), ("o", False)),
    "recipe_revised_stable": (
        ("r", "review: tightened the verification step"),
        ("u",),
        ("r", "review: rollback now waits for the drain"),
    )
    + (("o", True),) * 6,
    "recipe_repaired": (("o", True),) * 5
    + (
        ("o", False),
        ("m", "playbook"),
        ("r", "skill_repair:{init1}: verification missed the lock wait"),
        ("o", True),
        ("o", True),
        ("o", False),
        ("m", "playbook"),
        ("r", "skill_repair:{init2}: restore now checks quick_check before copying"),
        ("o", True),
    ),
    "recipe_playbook": (
        ("o", True),
        ("o", True),
        ("o", False),
        ("m", "playbook"),
        ("r", "skill_repair:{init1}: the check ran before the rebuild finished"),
        ("o", False),
        ("m", "playbook"),
    ),
    "negative": (("u",), ("o", True), ("o", True)),
}
_BULK_PLANS: tuple[tuple[str, int], ...] = (
    ("stable", 12),
    ("stable_dip", 3),
    ("confirmed", 14),
    ("confirmed_dip", 4),
    ("draft", 22),
    ("draft_failed", 6),
    ("deprecated", 6),
    ("deprecated_ratio", 2),
    ("playbook", 8),
    ("playbook_failing", 3),
    ("playbook_deprecated", 2),
    ("recipe_revised_stable", 3),
    ("recipe_repaired", 2),
    ("recipe_playbook", 2),
    ("negative", 7),
)


class _SkillSpec:
    __slots__ = (
        "created",
        "description",
        "keywords",
        "kind",
        "maturity",
        "name",
        "plan",
        "policy",
        "source",
        "template",
        "tools",
        "verification",
        "when",
    )

    def __init__(self, **kw: Any) -> None:
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


def _steps(lines: list[str]) -> str:
    return "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1))


def _curated_skills(rng: random.Random, now: int) -> list[_SkillSpec]:
    """Skills that show every grade and shape, with fixed names (tests and screenshots rely on them)."""

    def at(days_ago: float) -> int:
        return now - int(days_ago * DAY_MS)

    def pb_name(sig: str, failure: bool = False) -> str:
        return f"playbook-{sig}-{'fail-' if failure else ''}{_hex(rng, 6)}"

    def lesson(i: int, zh: bool) -> str:
        text = (_LESSONS_ZH if zh else _LESSONS_EN)[i]
        return (
            f"{text}\nApplies when: {_PLAYBOOK_SIGS[i]} tasks on production\n"
            f"Next time: {'先检查长事务和锁' if zh else 'check long transactions and locks first'}"
        )

    out = [
        _SkillSpec(
            name="deploy-blue-green",
            plan="recipe_revised_stable",
            created=at(150),
            kind="positive",
            description="Release a service with a blue-green switch: deploy to the idle colour, check health, "
            "switch the router, keep the old colour for a fast rollback.",
            keywords=("deploy", "blue-green", "rollback", "部署"),
            template=_steps(
                [
                    "kubectl apply -f deploy/green.yaml",
                    "wait for readiness on every pod",
                    "switch the router to green",
                    "keep blue for 30 minutes, then scale it down",
                ]
            ),
            when="Releasing any service to production",
            verification=_VERIFICATIONS[0],
            policy=["shell", "webFetch"],
            tools=("shell", "webFetch"),
        ),
        _SkillSpec(
            name="nightly-backup-verify",
            plan="recipe_repaired",
            created=at(170),
            kind="positive",
            description="Verify last night's backup: quick_check, row counts against the manifest, a test restore.",
            keywords=("backup", "restore", "quick_check", "备份"),
            template=_steps(
                [
                    "sqlite3 backups/latest.sqlite 'PRAGMA quick_check'",
                    "compare row counts with the manifest",
                    "restore into scratch and open it read-only",
                ]
            ),
            when="Every morning, or before any migration",
            verification=_VERIFICATIONS[1],
            policy=["shell"],
            tools=("shell",),
        ),
        _SkillSpec(
            name="sqlite-fts-rebuild",
            plan="recipe_playbook",
            created=at(80),
            kind="positive",
            description="Rebuild an FTS5 index that drifted from its content table, then verify the counts.",
            keywords=("fts5", "rebuild", "sqlite", "索引"),
            template=_steps(
                [
                    "back up the database",
                    "INSERT INTO fts(fts) VALUES('rebuild')",
                    "compare docsize and content counts",
                ]
            ),
            when="Search misses rows that exist",
            verification=_VERIFICATIONS[2],
            policy=["shell", "readFile"],
            tools=("shell", "readFile"),
        ),
        _SkillSpec(
            name="postgres-migration-checklist",
            plan="confirmed",
            created=at(120),
            kind="positive",
            description="Checklist for PostgreSQL migrations: lock timeout, batches, backfill, rollback.",
            keywords=("postgres", "migration", "checklist"),
            template=_steps(
                [
                    "SET lock_timeout = '3s'",
                    "add columns as nullable",
                    "backfill in batches of 10k",
                    "validate constraints separately",
                ]
            ),
            when="Before any schema change on PostgreSQL",
            tools=("shell", "readFile"),
        ),
        _SkillSpec(
            name="数据库迁移回滚",
            plan="stable_dip",
            created=at(160),
            kind="positive",
            description="数据库迁移失败时的回滚步骤：停写、执行 down 脚本、校验行数、恢复写入。",
            keywords=("数据库", "迁移", "回滚"),
            template=_steps(["暂停写入流量", "执行 down 迁移脚本", "核对关键表行数", "恢复写入并观察错误率"]),
            when="生产环境数据库迁移失败时",
            tools=("shell",),
        ),
        _SkillSpec(
            name="travel-itinerary-builder",
            plan="confirmed_dip",
            created=at(140),
            kind="positive",
            description="Build a travel itinerary: flights, hotel near the venue, calendar entries, check-in reminder.",
            keywords=("travel", "itinerary", "hotel", "行程"),
            template=_steps(
                [
                    "search flights",
                    "shortlist 3 hotels within walking distance",
                    "create calendar events",
                    "schedule the online check-in reminder",
                ]
            ),
            when="A trip is mentioned with a date",
            tools=("webSearch", "create_calendar_event", "schedule_reminder"),
        ),
        _SkillSpec(
            name="wangcai-vet-booking",
            plan="draft",
            created=at(30),
            kind="positive",
            description="给旺财预约宠物医院：查疫苗记录，选周末上午的号，提醒带疫苗本。",
            keywords=("旺财", "宠物医院", "vet"),
            template=_steps(["查看旺财的疫苗记录", "预约周六上午", "前一天提醒带疫苗本"]),
            when="旺财需要体检或打疫苗",
            tools=("create_calendar_event",),
        ),
        _SkillSpec(
            name="部署前检查",
            plan="stable",
            created=at(175),
            kind="positive",
            description="部署前检查清单：变更说明、数据库迁移是否可回滚、监控告警、值班人员。",
            keywords=("部署", "检查", "上线"),
            template=_steps(["确认变更说明", "确认迁移可回滚", "打开监控面板", "通知值班同事"]),
            when="每次上线之前",
            tools=("shell", "readFile"),
        ),
        _SkillSpec(
            name="ftp-deploy-script",
            plan="deprecated",
            created=at(178),
            kind="positive",
            description="Upload the static site over FTP (the old host).",
            keywords=("ftp", "deploy", "static"),
            template=_steps(["lftp -u deploy ftp.example.com", "mirror -R dist/ /www"]),
            when="",
            tools=("shell",),
        ),
        _SkillSpec(
            name="旧版备份脚本",
            plan="deprecated_ratio",
            created=at(176),
            kind="positive",
            description="用 cron 和 tar 做整机备份（已被 nightly-backup-verify 取代）。",
            keywords=("备份", "cron", "tar"),
            template=_steps(["tar czf /backup/full.tgz /srv", "scp 到备份机"]),
            when="",
            tools=("shell",),
        ),
        _SkillSpec(
            name="no-friday-deploys",
            plan="stable",
            created=at(130),
            kind="negative",
            description=_NEGATIVE_KINDS[0][1],
            keywords=_NEGATIVE_KINDS[0][3],
            template="If a deploy is requested on Friday after 14:00, propose Monday morning instead.",
            when="A production deploy is requested on a Friday afternoon",
            tools=("shell",),
        ),
        _SkillSpec(
            name="no-force-push-main",
            plan="draft",
            created=at(90),
            kind="negative",
            description=_NEGATIVE_KINDS[1][1],
            keywords=_NEGATIVE_KINDS[1][3],
            template="Use git revert and a pull request; never git push --force to main.",
            when="",
            tools=("shell",),
        ),
        _SkillSpec(
            name="用中文回答中文问题",
            plan="confirmed",
            created=at(100),
            kind="negative",
            description="用户用中文提问时，不要只用英文回答。",
            keywords=("中文", "语言", "回复"),
            template="检测到中文提问时，用中文回答，技术名词可以保留英文。",
            when="用户用中文提问",
            tools=("search_notes",),
        ),
        _SkillSpec(
            name=pb_name("db-migration"),
            plan="playbook",
            created=at(60),
            kind="positive",
            source=f"self:reflect-{_hex(rng, 8)}",
            maturity="playbook",
            description=lesson(0, False),
            keywords=(),
            template=lesson(0, False) + "\n[Why not routing_rule] the lesson depends on the table size",
            when="",
            tools=("shell",),
        ),
        _SkillSpec(
            name=pb_name("deploy", failure=True),
            plan="playbook_failing",
            created=at(45),
            kind="positive",
            source=f"plan-failure:deploy:{_hex(rng, 6)}",
            maturity="playbook",
            description=lesson(1, True),
            keywords=(),
            template=lesson(1, True) + "\n[Why not routing_rule] 需要结合队列状态判断",
            when="",
            tools=("shell", "webFetch"),
        ),
        _SkillSpec(
            name=pb_name("flaky-test"),
            plan="playbook_deprecated",
            created=at(110),
            kind="positive",
            source=f"self:reflect-{_hex(rng, 8)}",
            maturity="playbook",
            description=lesson(2, False),
            keywords=(),
            template=lesson(2, False) + "\n[Why not routing_rule] applies to one test suite only",
            when="",
            tools=("shell",),
        ),
        _SkillSpec(
            name="clawhub",
            plan="draft",
            created=at(70),
            kind="positive",
            source="clawhub:clawhub@1.4.0",
            description="Search and install community skills from ClawHub.",
            keywords=("skills", "install"),
            template="clawhub search <query>; clawhub install <slug>",
            when="No local skill fits the task",
            tools=("webFetch",),
        ),
        _SkillSpec(
            name="pdf-tools",
            plan="confirmed",
            created=at(65),
            kind="positive",
            source="clawhub:pdf-tools@1.2.0",
            description="Extract text and tables from PDF files.",
            keywords=("pdf", "extract", "表格"),
            template="pdf-tools extract --tables <file>",
            when="A PDF is attached",
            tools=("readFile",),
        ),
        _SkillSpec(
            name="github-issue-triage",
            plan="stable",
            created=at(95),
            kind="positive",
            source="github:mycox/agent-skills@3f9c2a1",
            description="Label and prioritise new GitHub issues.",
            keywords=("github", "issues", "triage"),
            template=_steps(["read the issue", "label", "assign"]),
            when="New issues arrived overnight",
            tools=("webFetch",),
        ),
    ]
    return out


def _bulk_skills(rng: random.Random, count: int, taken: set[str], start: int, now: int) -> list[_SkillSpec]:
    names = [p for p, _w in _BULK_PLANS]
    weights = tuple(w for _p, w in _BULK_PLANS)
    out: list[_SkillSpec] = []
    serial = 0
    while len(out) < count:
        plan = names[_weighted_index(rng, weights)]
        s = _sticky_slots(rng)
        zh = rng.random() < 0.35
        created = start - 20 * DAY_MS + int(rng.random() * (now - 3 * DAY_MS - start + 20 * DAY_MS))
        source: str | None = None
        x = rng.random()
        if x < 0.25:
            source = f"self:reflect-{_hex(rng, 8)}"
        elif x < 0.33:
            source = f"clawhub:{_pick(rng, ('pdf-tools', 'calendar-sync', 'k8s-helper', 'translate'))}@1.{rng.randint(0, 9)}.0"
        elif x < 0.38:
            source = f"github:{_pick(rng, ('mycox', 'acme', 'skills-hub'))}/agent-skills@{_hex(rng, 7)}"
        maturity = None
        kind = "positive"
        verification = policy = None
        if plan.startswith("playbook"):
            i = int(rng.random() * len(_PLAYBOOK_SIGS))
            sig = _PLAYBOOK_SIGS[i]
            failure = rng.random() < 0.3
            name = f"playbook-{sig}-{'fail-' if failure else ''}{_hex(rng, 6)}"
            text = (_LESSONS_ZH if zh else _LESSONS_EN)[i % len(_LESSONS_EN)]
            description = (
                f"{text}\nApplies when: {sig}\nNext time: {'先做一次演练' if zh else 'do a dry run first'}"
            )
            template = description + "\n[Why not routing_rule] too specific for a routing rule"
            keywords: tuple[str, ...] = ()
            source = f"plan-failure:{sig}:{_hex(rng, 6)}" if failure else f"self:reflect-{_hex(rng, 8)}"
            maturity = "playbook"
            tools: tuple[str, ...] = ("shell",)
            when = ""
        elif plan == "negative":
            slug, en, zh_text, keywords = _NEGATIVE_KINDS[int(rng.random() * len(_NEGATIVE_KINDS))]
            serial += 1
            name = f"{slug}-{serial}"
            description = zh_text if zh else en
            template = description
            kind = "negative"
            tools = ("shell",)
            when = ""
        else:
            slug, zh_name, en, zh_text, keywords, tools = _SKILL_KINDS[int(rng.random() * len(_SKILL_KINDS))]
            serial += 1
            name = f"{zh_name}-{serial}" if zh else f"{slug}-{serial}"
            description = (zh_text if zh else en).format_map(s)
            template = _steps(
                [
                    description,
                    "check the result" if not zh else "检查结果",
                    "record the outcome" if not zh else "记录结果",
                ]
            )
            when = (
                ""
                if rng.random() < 0.4
                else (f"当需要{zh_name}时" if zh else f"When asked to {slug.replace('-', ' ')}")
            )
            if plan.startswith("recipe"):
                verification = _VERIFICATIONS[int(rng.random() * len(_VERIFICATIONS))]
                policy = list(tools)
        if name in taken:
            continue
        taken.add(name)
        out.append(
            _SkillSpec(
                name=name,
                description=description,
                keywords=keywords,
                template=template,
                kind=kind,
                source=source,
                maturity=maturity,
                when=when,
                verification=verification,
                policy=policy,
                created=created,
                tools=tools,
                plan=plan,
            )
        )
    return out


def _skill_events(rng: random.Random, spec: _SkillSpec, now: int) -> list[tuple[int, str, tuple[Any, ...]]]:
    """The timed steps of a skill's plan, plus a few retrievals (usage only) at random times."""
    steps = list(_PLANS[spec.plan])
    for _ in range(int(rng.random() * 4)):
        steps.insert(int(rng.random() * (len(steps) + 1)), ("u",))
    lo = spec.created + HOUR_MS
    hi = now - 10 * MINUTE_MS
    times = sorted(lo + int(rng.random() * (hi - lo)) for _ in steps)
    return [(t, spec.name, step) for t, step in zip(times, steps, strict=True)]


# --------------------------------------------------------------------------------------------------
# Facts: curated ones show every time semantic; the rest fill many namespaces at many ages
# --------------------------------------------------------------------------------------------------

# A fact operation: (time, op, args). ops: store(ns, key, value, kwargs), self(key, content, refs),
# pin(ns, key), tau(ns, key, tau), forget(ns, key), access(ns, key).
FactOp = tuple[int, str, tuple[Any, ...]]

_LONG_BIO = (
    "Backend engineer, ten years of Python and PostgreSQL; runs the platform team at Mycox Labs. "
    "Cares about boring, reliable systems: backups that are tested, migrations that can be rolled back, "
    "deploys that are dull. 喜欢把事情写下来，讨厌重复劳动。 "
) * 8


def _curated_facts(rng: random.Random, now: int) -> list[FactOp]:
    def at(days_ago: float) -> int:
        return now - int(days_ago * DAY_MS)

    def st(t: int, ns: str, key: str, value: Any, **kw: Any) -> FactOp:
        return (t, "store", (ns, key, value, kw))

    ops: list[FactOp] = [
        # user: never decays; the prefix shows namespace exactly `user`
        st(at(178), "user", "name", "林晓 (Lin Xiao)"),
        st(at(178), "user", "language", ["zh-CN", "en"]),
        st(at(175), "user", "city", "杭州"),
        st(at(170), "user", "timezone", "Asia/Shanghai"),
        st(at(52), "user", "timezone", "Europe/Berlin", confidence=0.9),
        st(at(9), "user", "timezone", "Asia/Shanghai"),
        st(at(160), "user", "dog", {"name": "旺财", "breed": "柴犬 (shiba inu)", "born": "2021-04-03"}),
        st(at(150), "user", "employer", "Mycox Labs"),
        st(at(140), "user", "bio", _LONG_BIO),
        st(at(120), "user", "birthday", "1991-09-14", fact_kind="event", occurred_at=687_398_400_000),
        st(at(2), "user", "current_focus", "memory inspector release 发布前的收尾"),
        (at(1), "access", ("user", "city")),
        # user.preferences: decays like user, never in the prefix
        st(at(165), "user.preferences", "reply_style", "concise, bullet points, 中文优先"),
        st(at(150), "user.preferences", "editor", "neovim"),
        st(at(40), "user.preferences", "coffee", "flat white, no sugar"),
        st(at(12), "user.preferences", "nickname", "小林"),
        # project: 60-day tau
        st(at(172), "project", "name", "philont"),
        st(at(171), "project", "repo", "github.com/mycox/philont"),
        st(at(165), "project", "deploy_target", "heroku"),
        st(at(95), "project", "deploy_target", "fly.io"),
        st(at(21), "project", "deploy_target", "k8s (ACK 杭州)"),
        st(at(160), "project", "main_db", "PostgreSQL 16"),
        st(at(88), "project", "release_cadence", "every two weeks"),
        st(at(3), "project", "current_milestone", "v0.9 memory inspector", confidence=0.8),
        (at(100), "pin", ("project", "main_db")),
        st(at(70), "project.mycox", "billing_owner", "Alice"),
        st(at(30), "project.mycox", "sla", "99.9%"),
        st(at(130), "project.philont", "license", "MIT"),
        # context / session: one-day tau, most of them are forget candidates
        st(at(0.2), "context", "current_task", "reviewing migration 0042_add_origin_column"),
        st(at(3), "context", "mood", "tired after the on-call night", confidence=0.6),
        st(at(0.5), "context", "location", "office", decay_tau_days=7),
        st(at(5), "context", "last_search", "旺财 疫苗"),
        (at(4), "forget", ("context", "last_search")),
        st(at(0.1), "session", "focus", "deploy checklist"),
        st(at(2), "session", "language", "zh"),
        # decisions: 365-day default
        st(at(168), "decisions", "memory_store", "SQLite with FTS5 trigram search"),
        (at(168), "pin", ("decisions", "memory_store")),
        st(at(155), "decisions", "db_choice", "MySQL 8"),
        st(at(150), "decisions", "db_choice", "PostgreSQL 16"),
        st(at(61), "decisions", "no_friday_deploys", True, fact_kind="event", occurred_at=at(62)),
        st(at(20), "decisions", "backup_retention", 28),
        # travel: events, validity windows (past, current, future), custom tau
        st(
            at(14),
            "travel",
            "lisbon_flight",
            {"flight": "TP 1234", "from": "BER", "to": "LIS", "seat": "14C"},
            fact_kind="event",
            occurred_at=at(-12),
        ),
        st(
            at(14), "travel", "hotel_lisbon", "Hotel Baixa, 4 nights", valid_from=at(-12), valid_until=at(-16)
        ),
        st(
            at(47),
            "travel",
            "chengdu_trip",
            "成都出差：见客户，吃火锅",
            fact_kind="event",
            occurred_at=at(45),
        ),
        st(
            at(48), "travel", "hotel_chengdu", "春熙路附近的酒店，3 晚", valid_from=at(46), valid_until=at(43)
        ),
        st(at(2), "travel", "hangzhou_office_pass", "临时门禁卡", valid_from=at(1), valid_until=at(-5)),
        st(at(100), "travel", "passport_expiry", "2029-03-01", decay_tau_days=3650),
        st(at(80), "travel", "preferred_seat", "aisle", decay_tau_days=30),
        # health and pets
        st(at(170), "pets", "wangcai_rabies", "狂犬疫苗已打", fact_kind="event", occurred_at=at(170)),
        st(at(25), "pets", "wangcai_weight_kg", 10.4),
        st(at(6), "pets", "wangcai_weight_kg", 10.8),
        st(at(60), "user.health", "allergy", "penicillin"),
        # namespaces that fall to the default tau although they look like user/context
        st(at(90), "USER", "misc", "uppercase namespace: 365-day default"),
        st(at(90), "contextual", "hint", "not the context namespace"),
        st(at(179), "research", "fts_notes", "trigram needs >= 3 characters; 2-char CJK uses LIKE"),
        (at(150), "tau", ("research", "fts_notes", 90.0)),
        st(at(33), "finance", "monthly_budget_cny", 12000, confidence=0.7),
        st(at(33), "工作", "周会时间", "周三下午 3 点"),
        # self: only through update_self_fact
        (
            at(120),
            "self",
            ("summary", "I help 林晓 run a small platform team's infrastructure.", ["session:global"]),
        ),
        (
            at(11),
            "self",
            (
                "summary",
                "I help 林晓 with releases, databases and travel; she prefers concise answers.",
                ["session:global", "note:weekly-review"],
            ),
        ),
        (
            at(60),
            "self",
            (
                "strengths",
                ["database migrations", "deploy checklists", "中文和英文"],
                ["skill:deploy-blue-green"],
            ),
        ),
        (
            at(10),
            "self",
            (
                "growth_edges",
                ["estimating migration lock times", "time zones in bookings"],
                ["skill:travel-itinerary-builder"],
            ),
        ),
        (
            at(8),
            "self",
            (
                "obs.recipe-decay",
                "nightly-backup-verify failed its verification and went back to playbook",
                ["skill:nightly-backup-verify"],
            ),
        ),
    ]
    return ops


_FACT_NAMESPACES: tuple[tuple[str, int], ...] = (
    ("user", 6),
    ("user.preferences", 8),
    ("user.health", 3),
    ("project", 7),
    ("project.philont", 6),
    ("project.mycox", 5),
    ("project.billing", 4),
    ("context", 10),
    ("session", 7),
    ("decisions", 8),
    ("travel", 8),
    ("research", 5),
    ("finance", 3),
    ("pets", 4),
    ("工作", 3),
    ("USER", 1),
    ("contextual", 1),
)
# Key names by the namespace's first segment (a serial is appended when a key is taken).
_FACT_KEYS: dict[str, tuple[str, ...]] = {
    "user": ("hobby", "gym_days", "favorite_food", "phone", "commute", "sister_birthday", "喜欢的茶", "运动"),
    "user.preferences": ("editor", "theme", "units", "reply_language", "music", "font", "界面语言"),
    "user.health": ("sleep_hours", "steps_goal", "checkup", "体检"),
    "project": ("deploy_window", "db_host", "api_owner", "oncall", "release", "budget", "负责人", "里程碑"),
    "context": ("current_file", "open_ticket", "last_command", "当前任务", "weather"),
    "session": ("topic", "focus", "话题", "draft_reply"),
    "decisions": ("queue", "cache", "ci_provider", "orm", "决策"),
    "travel": ("flight", "hotel", "visa", "train", "行程", "酒店"),
    "research": ("paper", "benchmark", "reading_list", "论文"),
    "finance": ("rent", "subscription", "预算", "reimbursement"),
    "pets": ("wangcai_food", "wangcai_walk", "vet_visit", "旺财体重"),
    "工作": ("周会", "汇报", "绩效"),
}
_FACT_STRINGS_EN = (
    "{service} is owned by the platform team",
    "prefers {food} on Fridays",
    "{db} on {host}",
    "{city} in {month}",
    "standup moved to {day}",
    "{lib} pinned below the next major",
    "{task}",
)
_FACT_STRINGS_ZH = (
    "{service} 由平台组负责",
    "周五想吃{food_zh}",
    "{city_zh}出差",
    "{task_zh}",
    "周会改到{day_zh}",
)


def _fact_value(rng: random.Random, s: _Slots) -> Any:
    x = rng.random()
    if x < 0.5:
        return _pick(rng, _FACT_STRINGS_ZH if rng.random() < 0.45 else _FACT_STRINGS_EN).format_map(s)
    if x < 0.62:
        return rng.randint(1, 5000)
    if x < 0.7:
        return round(rng.random() * 100, 2)
    if x < 0.76:
        return rng.random() < 0.5
    if x < 0.9:
        return {"value": s["thing"], "source": "chat", "lang": "zh" if rng.random() < 0.5 else "en"}
    return [s["city"], s["city_zh"], s["day"]]


def _bulk_facts(
    rng: random.Random, rows: int, start: int, now: int, taken: set[tuple[str, str]]
) -> list[FactOp]:
    """``rows`` more fact rows (versions included) under keys not in ``taken``."""
    names = tuple(n for n, _w in _FACT_NAMESPACES)
    weights = tuple(w for _n, w in _FACT_NAMESPACES)
    ops: list[FactOp] = []
    made = 0
    serial = 0
    used: set[tuple[str, str]] = set(taken)
    while made < rows:
        ns = names[_weighted_index(rng, weights)]
        vocab = _FACT_KEYS.get(ns) or _FACT_KEYS.get(ns.split(".", 1)[0]) or ("misc", "note")
        key = _pick(rng, vocab)
        if (ns, key) in used:
            serial += 1
            key = f"{key}_{serial}"
        used.add((ns, key))
        versions = 1
        while versions < 4 and rng.random() < 0.22:
            versions += 1
        versions = min(versions, rows - made)
        s = _sticky_slots(rng)
        t = start + int(rng.random() * (now - start - HOUR_MS))
        for _v in range(versions):
            kw: dict[str, Any] = {}
            if rng.random() < 0.35:
                kw["confidence"] = round(0.4 + rng.random() * 0.6, 2)
            x = rng.random()
            if x < 0.15:
                kw["fact_kind"] = "event"
                kw["occurred_at"] = t - int(rng.random() * 3 * DAY_MS)
            elif x < 0.25:
                vf = t + int((rng.random() - 0.3) * 20 * DAY_MS)
                kw["valid_from"] = vf
                kw["valid_until"] = vf + int((1 + rng.random() * 30) * DAY_MS)
            if rng.random() < 0.04:
                kw["decay_tau_days"] = _pick(rng, (3, 7, 30, 90, 730))
            ops.append((t, "store", (ns, key, _fact_value(rng, s), kw)))
            made += 1
            t_next = t + int(rng.random() * (now - t) * 0.6)
            if rng.random() < 0.25:
                ops.append((t + int(rng.random() * (now - t)), "access", (ns, key)))
            t = max(t_next, t + MINUTE_MS)
            if t >= now:
                break
        if rng.random() < 0.02:
            ops.append((t, "pin", (ns, key)))
        elif rng.random() < 0.03:
            ops.append((t + int(rng.random() * max(1, now - t)), "forget", (ns, key)))
    return ops


# --------------------------------------------------------------------------------------------------
# Notes, calendar events and schedules
# --------------------------------------------------------------------------------------------------

_NOTE_EN = (
    "Lesson: take a fresh backup before running {mig} on {env}.",
    "The {service} deploy needs the feature flag off first, otherwise the health check lies.",
    "Queries on {table} by {col} need the composite index; without it they scan {n}M rows.",
    "旺财's vet is open on Saturdays until 14:00; bring the vaccination booklet.",
    "Hotel in {city}: ask for a quiet room on a high floor.",
    "Decision: keep the memory in SQLite with FTS5 trigram search; revisit at 10M messages.",
    "Remember to update the on-call rota before the holidays.",
    "{lib} is pinned until the upstream fix for the regression lands.",
    "The {db} replica on {host} lags by {k} seconds during the nightly batch.",
)
_NOTE_ZH = (
    "经验：在 {env} 上跑 {mig} 之前先做一次数据库备份。",
    "{service} 部署前要先关掉功能开关，否则健康检查不准。",
    "{table} 按 {col} 查询需要联合索引，否则会扫 {n} 百万行。",
    "旺财的宠物医院周六营业到下午两点，记得带疫苗本。",
    "{city_zh}的酒店：要安静的高楼层房间。",
    "决定：记忆继续用 SQLite + FTS5 trigram，消息到一千万条时再评估。",
    "节假日前记得 update 值班表。",
    "{host} 上的 {db} 从库在夜间批处理时延迟 {k} 秒。",
)
_SUMMARY_EN = {
    "travel": "Session summary: planned the {city} trip (flights, hotel near the venue); check-in reminder set.",
    "dog": "Session summary: 旺财's vaccination and vet visit; booked {day} afternoon.",
    "db": "Session summary: migration {mig} on {db}; rollback script written; index on {table}({col}) added.",
    "deploy": "Session summary: {service} {ver} deployed to {env}; one rollback; no Friday deploys agreed.",
}
_SUMMARY_ZH = {
    "travel": "会话摘要：规划了{city_zh}出差（机票、会场附近的酒店），设置了值机提醒。",
    "dog": "会话摘要：旺财的疫苗和体检，约在{day_zh}下午。",
    "db": "会话摘要：{db} 上的数据库迁移 {mig}，写好了回滚脚本，给 {table}({col}) 加了索引。",
    "deploy": "会话摘要：{service} {ver} 部署到 {env}，回滚过一次，约定周五不部署。",
}
_SUMMARY_GENERIC_EN = "Session summary: talked about {thing}; follow-up: {task}."
_SUMMARY_GENERIC_ZH = "会话摘要：讨论了{thing_zh}；待办：{task_zh}。"

# (ts, id or None, content, importance, session_id, forgotten_at or None)
NoteSpec = tuple[int, str | None, str, float, str | None, int | None]


def _plan_notes(rng: random.Random, count: int, tl: _Timeline, start: int, now: int) -> list[NoteSpec]:
    out: list[NoteSpec] = []

    def summary(sid: str, topic: str, zh: bool, end: int) -> None:
        s = _sticky_slots(rng)
        text = (_SUMMARY_ZH if zh else _SUMMARY_EN).get(topic) or (
            _SUMMARY_GENERIC_ZH if zh else _SUMMARY_GENERIC_EN
        )
        forgotten = end + int(rng.random() * (now - end)) if rng.random() < 0.08 else None
        at = min(end + int(rng.random() * HOUR_MS), now - 1)
        out.append(
            (
                at,
                f"session-summary-{sid}",
                text.format_map(s),
                round(0.55 + rng.random() * 0.3, 2),
                sid,
                forgotten,
            )
        )

    budget = max(1, count // 2)
    if count > 0:
        summary(schema.GLOBAL_SESSION_ID, "deploy", True, now - 2 * HOUR_MS)
    for sid, (_first, last) in sorted(tl.sessions.items(), key=lambda kv: kv[1][0]):
        if len(out) >= budget:
            break
        if rng.random() < 0.85:
            topic, zh = tl.session_topic[sid]
            summary(sid, topic, zh, last)
    budget = max(1, (count * 6) // 10)
    for oid, (_first, last) in sorted(tl.origins.items(), key=lambda kv: kv[1][0]):
        if len(out) >= budget:
            break
        if not oid.startswith("system:scheduled:") and rng.random() < 0.3:
            topic, zh = tl.origin_topic[oid]
            summary(oid, topic, zh, last)
    sessions = sorted(tl.sessions)
    while len(out) < count:
        s = _sticky_slots(rng)
        zh = rng.random() < 0.45
        text = _pick(rng, _NOTE_ZH if zh else _NOTE_EN).format_map(s)
        t = start + int(rng.random() * (now - start - MINUTE_MS))
        sid = (
            sessions[int(rng.random() * len(sessions))]
            if sessions and rng.random() < 0.3
            else (schema.GLOBAL_SESSION_ID if rng.random() < 0.5 else None)
        )
        forgotten = t + int(rng.random() * (now - t)) if rng.random() < 0.05 else None
        out.append((t, None, text, round(0.05 + rng.random() * 0.95, 2), sid, forgotten))
    out = out[:count]
    out.sort(key=lambda n: n[0])
    return out


def _next_local_time(now: int, hour_utc: int, days_ahead: int = 0) -> int:
    day = (now // DAY_MS) * DAY_MS + hour_utc * HOUR_MS
    if day <= now:
        day += DAY_MS
    return day + days_ahead * DAY_MS


def _rrule_until(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y%m%d")


def _plan_calendar(rng: random.Random, count: int, start: int, now: int) -> list[dict[str, Any]]:
    """Keyword arguments of :meth:`CalendarStore.create` (``related`` names a fact ``(ns, key)``)."""

    def day(offset_days: int, hour_utc: int) -> int:
        return (now // DAY_MS + offset_days) * DAY_MS + hour_utc * HOUR_MS

    events: list[dict[str, Any]] = [
        dict(
            title="旺财 rabies booster 狂犬疫苗加强针",
            starts_at=day(20, 2),
            ends_at=day(20, 3),
            timezone="Asia/Shanghai",
            related=("pets", "wangcai_rabies"),
            created=day(-30, 4),
        ),
        dict(
            title="Flight TP 1234 BER → LIS",
            starts_at=day(12, 7),
            ends_at=day(12, 10),
            timezone="Europe/Berlin",
            related=("travel", "lisbon_flight"),
            external_ref="gcal:tp1234-" + _hex(rng, 6),
            created=day(-14, 9),
        ),
        dict(
            title="Talk: boring databases (Lisbon)",
            starts_at=day(14, 13),
            ends_at=day(14, 14),
            timezone="Europe/Lisbon",
            created=day(-20, 9),
        ),
        dict(
            title="Weekly sync 周会",
            starts_at=day(-120, 7),
            ends_at=day(-120, 8),
            rrule="FREQ=WEEKLY",
            timezone="Asia/Shanghai",
            created=day(-121, 3),
        ),
        dict(
            title="Daily standup",
            starts_at=day(-100, 1),
            rrule="FREQ=DAILY;INTERVAL=1;COUNT=200",
            timezone="Asia/Shanghai",
            created=day(-101, 3),
        ),
        dict(
            title="Sprint review",
            starts_at=day(-90, 6),
            rrule=f"FREQ=WEEKLY;INTERVAL=2;UNTIL={_rrule_until(day(60, 0))}",
            timezone="Europe/Berlin",
            created=day(-91, 3),
        ),
        dict(
            title="Gym 健身",
            starts_at=day(-60, 11),
            rrule="FREQ=WEEKLY;COUNT=30",
            timezone="Asia/Shanghai",
            created=day(-61, 3),
        ),
        dict(
            title="Dentist",
            starts_at=day(-30, 1),
            ends_at=day(-30, 2),
            timezone="Asia/Shanghai",
            created=day(-40, 3),
        ),
        dict(
            title="妈妈生日",
            starts_at=day(40, 0),
            rrule="FREQ=YEARLY",
            timezone="Asia/Shanghai",
            created=day(-150, 3),
        ),
        dict(
            title="Chengdu client dinner 成都客户晚宴",
            starts_at=day(-45, 11),
            ends_at=day(-45, 13),
            timezone="Asia/Shanghai",
            related=("travel", "chengdu_trip"),
            created=day(-50, 3),
        ),
        dict(
            title="Walk 旺财 遛狗",
            starts_at=day(-150, 10),
            rrule="FREQ=DAILY",
            timezone="Asia/Shanghai",
            external_ref="gcal:walk-" + _hex(rng, 6),
            created=day(-150, 3),
        ),
        dict(title="Certificate renewal", starts_at=day(3, 2), timezone="UTC", created=day(-5, 3)),
    ]
    titles_en = ("Call with {service} team", "1:1 with Alice", "Review {mig}", "Trip to {city}", "Pay {task}")
    titles_zh = ("和{service}团队开会", "{city_zh}出差", "旺财体检", "数据库迁移演练", "交{task_zh}")
    while len(events) < count:
        s = _sticky_slots(rng)
        zh = rng.random() < 0.45
        title = _pick(rng, titles_zh if zh else titles_en).format_map(s)
        st = start + int(rng.random() * (now + 60 * DAY_MS - start))
        st -= st % (30 * MINUTE_MS)
        ev: dict[str, Any] = dict(
            title=title,
            starts_at=st,
            timezone=_pick(rng, _TIMEZONES),
            created=min(now - MINUTE_MS, st - int(rng.random() * 20 * DAY_MS)),
        )
        if rng.random() < 0.6:
            ev["ends_at"] = st + _pick(rng, (30, 60, 90)) * MINUTE_MS
        if rng.random() < 0.15:
            ev["rrule"] = _pick(rng, ("FREQ=WEEKLY", "FREQ=DAILY;COUNT=10", "FREQ=WEEKLY;INTERVAL=2;COUNT=6"))
        events.append(ev)
    return events[: max(count, 0)]


def _create_schedules(
    store: Any, rng: random.Random, extra: int, start: int, now: int
) -> tuple[list[tuple[str, str, str, int, int | None]], int]:
    """Create the schedules; returns ``([(id, kind, name, created_at, disabled_at)], rows)``."""
    b2 = start + int((now - start) * 0.6)
    replaced_at = start + int((now - start) * 0.4)
    mk = store.create
    old_digest = mk(
        "daily-digest",
        start - 10 * DAY_MS + DAY_MS,
        "prompt",
        {"message": "Send me the daily digest"},
        "interval:86400000",
        created_by="llm_external",
        now=start - 10 * DAY_MS,
    )
    store.disable_by_name("daily-digest")
    digest = mk(
        "daily-digest",
        _next_local_time(now, 0),
        "prompt",
        {"message": "每日摘要：日程、待办和备份状态"},
        "interval:86400000",
        now=replaced_at,
    )
    backup = mk(
        "backup-check",
        now + int(rng.random() * 6 * HOUR_MS),
        "tool_call",
        {"tool": "shell", "args": {"command": "sqlite3 memory.sqlite 'PRAGMA quick_check'"}},
        "interval:21600000",
        created_by="system",
        now=start + 5 * DAY_MS,
    )
    walk = mk(
        "旺财遛狗",
        _next_local_time(now, 10),
        "prompt",
        {"message": "该带旺财出去散步了 🐕"},
        "interval:86400000",
        now=start + 30 * DAY_MS,
    )
    review = mk(
        "weekly-review",
        _next_local_time(now, 1, 3),
        "autonomous_turn",
        {"prompt": "Write the weekly review of the philont project", "replyChannel": "silent"},
        "interval:604800000",
        project="philont",
        now=b2 - 3 * DAY_MS,
    )
    reflect = mk(
        "reflect-nightly",
        _next_local_time(now, 18),
        "reflect",
        {},
        "interval:86400000",
        created_by="system",
        now=start + 2 * DAY_MS,
    )
    store.set_enabled(reflect.id, False)
    mk(
        "check-in-lisbon",
        _next_local_time(now, 7, 11),
        "prompt",
        {"message": "Check in online for TP 1234"},
        now=now - 14 * DAY_MS,
    )
    mk("交房租", now - DAY_MS, "prompt", {"message": "交房租，别忘了"}, now=now - 20 * DAY_MS)
    mk(
        "renew-certs",
        _next_local_time(now, 2, 40),
        "prompt",
        {"message": "Renew the TLS certificates"},
        now=now - 3 * DAY_MS,
    )
    rows = 9
    for i in range(extra):
        created = start + int(rng.random() * (now - start))
        sched = mk(
            f"remind-{i + 1}",
            created + int(rng.random() * 10 * DAY_MS),
            "prompt",
            {"message": _pick(rng, _VOCAB["task"] + _VOCAB["task_zh"])},
            now=created,
        )
        if sched.next_run_at < now and rng.random() < 0.7:
            store.set_enabled(sched.id, False)
        rows += 1
    timeline = [
        (old_digest.id, "digest", "daily-digest", start - 10 * DAY_MS, replaced_at),
        (digest.id, "digest", "daily-digest", replaced_at, None),
        (backup.id, "backup", "backup-check", start + 5 * DAY_MS, None),
        (walk.id, "walk", "旺财遛狗", start + 30 * DAY_MS, None),
        (review.id, "review", "weekly-review", b2 - 3 * DAY_MS, None),
    ]
    return timeline, rows


# --------------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------------


def _bulk_load_messages(
    db: MemoryDB, raw: RawStore, rows: list[MsgRow], progress: ProgressFn | None = None, batch: int = 100_000
) -> int:
    """Append ``rows`` through :meth:`RawStore.append_many` and index them with one FTS ``rebuild``.

    The raw-message FTS insert trigger (named by :data:`core.schema.FTS_TABLES`) is dropped for the
    load, recreated from :data:`core.schema.TRIGGER_DDL` and the index rebuilt from the content table,
    all in the caller's transaction: nobody ever sees messages without their index. A trigram index
    built in one pass is about three times faster than row-by-row trigger inserts.
    """
    fts = next(f for f in schema.FTS_TABLES if f.content_table == "memory_raw_messages")
    trigger = next(t for t in fts.triggers if t.endswith("_ai"))
    done = 0
    with db.write() as conn:
        conn.execute(f'DROP TRIGGER IF EXISTS "{trigger}"')
        for i in range(0, len(rows), batch):
            done += raw.append_many(rows[i : i + batch], chunk_size=batch)
            if progress is not None:
                progress("messages", done, len(rows))
        conn.execute(schema.TRIGGER_DDL[trigger].strip())
        if progress is not None:
            progress("fts", 0, 1)
        conn.execute(f"INSERT INTO {fts.name}({fts.name}) VALUES('rebuild')")
        if progress is not None:
            progress("fts", 1, 1)
    return done


def _remove_db_files(p: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(p) + suffix).unlink()


def generate(
    path: str | os.PathLike[str],
    *,
    messages: int = 3000,
    seed: int = 0,
    now: int | None = None,
    progress: ProgressFn | None = None,
    actions: int | None = None,
    notes: int | None = None,
    facts: int | None = None,
    skills: int | None = None,
    calendar_events: int | None = None,
    schedules: int | None = None,
    span_days: int = DEFAULT_SPAN_DAYS,
) -> GenerateReport:
    """Write a new demo memory database at ``path`` and return what it holds.

    ``messages`` raw messages spread over ``span_days`` days before ``now`` (default: the current time;
    pass it to make the file reproducible). The other layers default to :func:`default_counts`; the
    action log holds at least one linked action per skill outcome, so ``actions`` is a minimum when it
    is smaller than the skills' histories need.
    ``progress(phase, done, total)`` is called as the work proceeds (phases: ``plan``, ``schedules``,
    ``messages``, ``fts``, ``skills``, ``actions``, ``facts``, ``notes``, ``calendar``).

    Raises :class:`FileExistsError` when ``path`` exists; nothing is written then. On any error the partial file is removed.
    """
    t_begin = time.perf_counter()
    target = Path(path).expanduser()
    gc_was_enabled = gc.isenabled()
    if target.exists():
        raise FileExistsError(
            errno.EEXIST, "A file already exists at this path; it was left alone", str(target)
        )
    if messages < 0 or span_days < 1:
        raise ValueError("messages must be >= 0 and span_days >= 1")
    now = now_ms() if now is None else int(now)
    sizes = default_counts(messages)
    n_actions = sizes["actions"] if actions is None else max(0, int(actions))
    n_notes = sizes["notes"] if notes is None else max(0, int(notes))
    n_facts = sizes["facts"] if facts is None else max(0, int(facts))
    n_skills = sizes["skills"] if skills is None else max(0, int(skills))
    n_calendar = sizes["calendar_events"] if calendar_events is None else max(0, int(calendar_events))
    n_sched_extra = sizes["schedules"] - 9 if schedules is None else max(0, int(schedules) - 9)
    start = now - span_days * DAY_MS
    global_start = start + int((now - start) * 0.35)
    phases: dict[str, float] = {}
    clock = [time.perf_counter()]

    def lap(name: str) -> None:
        t = time.perf_counter()
        phases[name] = round(phases.get(name, 0.0) + t - clock[0], 3)
        clock[0] = t
        if progress is not None:
            progress(name, 1, 1)

    def rng(stream: str) -> random.Random:
        return random.Random(f"{seed}:{stream}")

    tmp = target.with_name(f".{target.name}.partial-{os.getpid()}")
    _remove_db_files(tmp)
    counts: dict[str, int] = {}
    # Millions of small tuples: the cyclic collector would walk them again and again for nothing.
    gc.disable()
    try:
        with ids.seeded(rng("ids")):
            db = MemoryDB.create(tmp, now=global_start)
            try:
                db.conn.execute("PRAGMA cache_size=-262144")
                with db.write():
                    counts = _write_all(
                        db,
                        rng,
                        now,
                        start,
                        messages,
                        n_actions,
                        n_notes,
                        n_facts,
                        n_skills,
                        n_calendar,
                        n_sched_extra,
                        progress,
                        lap,
                    )
            finally:
                db.close()
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(str(tmp) + suffix, str(target) + suffix)
        os.replace(tmp, target)
    except BaseException:
        _remove_db_files(tmp)
        raise
    finally:
        if gc_was_enabled:
            gc.enable()
    return GenerateReport(
        path=str(target),
        seed=seed,
        now=now,
        span_days=span_days,
        seconds=round(time.perf_counter() - t_begin, 3),
        phases=phases,
        **counts,
    )


def _write_all(
    db: MemoryDB,
    rng: Callable[[str], random.Random],
    now: int,
    start: int,
    n_messages: int,
    n_actions: int,
    n_notes: int,
    n_facts: int,
    n_skills: int,
    n_calendar: int,
    n_sched_extra: int,
    progress: ProgressFn | None,
    lap: Callable[[str], None],
) -> dict[str, int]:
    raw = RawStore(db)
    sched_store = ScheduleStore(db)
    sched_timeline, n_sched = _create_schedules(sched_store, rng("schedules"), n_sched_extra, start, now)
    lap("schedules")

    tl = _plan_timeline(rng("timeline"), n_messages, start, now, sched_timeline)
    lap("plan")
    r = rng("sessions")
    named = sorted(
        (sid for sid in tl.sessions if not sid.startswith("system:")), key=lambda s: tl.sessions[s][0]
    )
    for sid in sorted(tl.sessions, key=lambda s: (tl.sessions[s][0], s)):
        raw.start_session(sid, started_at=tl.sessions[sid][0])
    n_loaded = _bulk_load_messages(db, raw, tl.rows, progress)
    for sid in named[:-1]:
        raw.end_session(sid, at=min(now - 1, tl.sessions[sid][1] + int((1 + r.random() * 20) * MINUTE_MS)))
    n_sessions = len(tl.sessions) + 1
    tl.rows = []
    lap("messages")

    # Skills and their history; outcome events become linked actions.
    skill_store = SkillStore(db)
    r = rng("skills")
    specs = _curated_skills(r, now)
    specs = specs[:n_skills] if n_skills < len(specs) else specs
    specs += _bulk_skills(r, n_skills - len(specs), {s.name for s in specs}, start, now)
    for spec in sorted(specs, key=lambda s: s.created):
        skill_store.create_skill(
            spec.name,
            spec.description,
            list(spec.keywords),
            spec.template,
            kind=spec.kind,
            source=spec.source,
            maturity=spec.maturity,
            when_to_use=spec.when,
            verification=spec.verification,
            tool_policy=spec.policy,
            now=spec.created,
        )
    events = sorted((e for spec in specs for e in _skill_events(r, spec, now)), key=lambda e: e[0])
    lap("skills")

    r = rng("actions")
    by_name = {s.name: s for s in specs}
    linked: list[ActionSpec] = []
    for t, name, step in events:
        if step[0] == "o":
            spec = by_name[name]
            tool = spec.tools[int(r.random() * len(spec.tools))]
            params, result, ok = _tool_call(
                r, tool, _sticky_slots(r), r.random() < 0.4, skill=name, ok=step[1]
            )
            linked.append((t, schema.GLOBAL_SESSION_ID, tool, params, result, ok, "chat", name))
    from_messages = tl.tool_calls
    room = max(0, n_actions - len(linked))
    if len(from_messages) > room:
        keep = sorted(r.sample(range(len(from_messages)), room))
        from_messages = [from_messages[i] for i in keep]
    background: list[ActionSpec] = []
    bg_tools = ("webFetch", "shell", "search_notes", "deep_explore", "planAndExecute", "webSearch")
    for _ in range(n_actions - len(linked) - len(from_messages)):
        tool = _pick(r, bg_tools)
        params, result, ok = _tool_call(r, tool, _sticky_slots(r), r.random() < 0.4)
        t = start + int(r.random() * (now - start - MINUTE_MS))
        background.append((t, schema.GLOBAL_SESSION_ID, tool, params, result, ok, "autonomous", None))
    specs_actions = sorted(linked + from_messages + background, key=lambda a: a[0])
    action_store = ActionStore(db)
    for i, (t, sid, tool, params, result, ok, trigger, skill) in enumerate(specs_actions):
        action_store.append(sid, tool, params, result, ok, t, trigger, skill)
        if progress is not None and i % 20_000 == 0:
            progress("actions", i, len(specs_actions))
    lap("actions")

    # Replay the skills' histories in time order (counters and grades follow the state machine).
    r = rng("skill-events")
    revisions: dict[str, int] = {}
    for t, name, step in events:
        op = step[0]
        if op == "o":
            skill_store.record_skill_outcome(name, step[1], at=t)
        elif op == "u":
            skill_store.record_usage(name, at=t)
        elif op == "m":
            skill_store.set_maturity(name, step[1])
        elif op == "r":
            cur = skill_store.get_by_name(name)
            if cur is None:
                continue
            n_rev = revisions.get(name, 0) + 1
            revisions[name] = n_rev
            reason = step[1].format(init1=f"init-{_hex(r, 8)}", init2=f"init-{_hex(r, 8)}")
            extra_step = reason.split(": ")[-1]
            lines = cur.action_template.count("\n") + 2
            kwargs: dict[str, Any] = {}
            if n_rev == 1 and isinstance(cur.verification, dict):
                kwargs["verification"] = {
                    **cur.verification,
                    "check": cur.verification.get("check", "") + " within 60 s",
                }
            skill_store.revise_recipe(
                name,
                reason=reason,
                action_template=f"{cur.action_template}\n{lines}. {extra_step}",
                now=t,
                **kwargs,
            )
    offerable = [s.name for s in specs if not s.plan.endswith("deprecated") and s.plan != "deprecated_ratio"]
    for _ in range(max(10, len(specs) // 2) if offerable else 0):
        shown = r.sample(offerable, min(10, len(offerable)))
        skill_store.record_skills_offered(shown, shown[: int(r.random() * 3)])
    lap("skills")

    # Facts.
    fact_store = FactStore(db)
    r = rng("facts")
    ops = _curated_facts(r, now)
    curated_rows = sum(1 for o in ops if o[1] in ("store", "self"))
    if n_facts < curated_rows:
        kept: list[FactOp] = []
        rows = 0
        for o in ops:
            if o[1] in ("store", "self"):
                if rows >= n_facts:
                    continue
                rows += 1
            kept.append(o)
        ops = kept
        curated_rows = rows
    taken = {(o[2][0], o[2][1]) for o in ops if o[1] == "store"}
    ops += _bulk_facts(r, n_facts - curated_rows, start, now, taken)
    ops.sort(key=lambda o: o[0])
    latest: dict[tuple[str, str], Any] = {}
    n_fact_rows = 0
    for t, op, args in ops:
        if op == "store":
            ns, key, value, kw = args
            latest[(ns, key)] = fact_store.store_fact(ns, key, value, now=t, **kw)
            n_fact_rows += 1
        elif op == "self":
            key, content, refs = args
            latest[("self", key)] = fact_store.update_self_fact(key, content, refs, now=t)
            n_fact_rows += 1
        else:
            fact = latest.get((args[0], args[1]))
            if fact is None:
                continue
            if op == "pin":
                fact_store.pin(fact.id)
            elif op == "tau":
                fact_store.set_tau(fact.id, args[2])
            elif op == "forget":
                fact_store.soft_forget(fact.id, at=t)
            elif op == "access":
                fact_store.mark_accessed(fact.id, at=t)
    lap("facts")

    notes_store = NotesStore(db)
    note_specs = _plan_notes(rng("notes"), n_notes, tl, start, now)
    for t, nid, content, importance, sid, forgotten in note_specs:
        note = notes_store.upsert(nid, content, importance, sid, created_at=t)
        if forgotten is not None:
            notes_store.forget(note.id, at=min(forgotten, now))
    lap("notes")

    cal_store = CalendarStore(db)
    events_cal = _plan_calendar(rng("calendar"), n_calendar, start, now)
    for ev in events_cal:
        related = ev.pop("related", None)
        created = ev.pop("created")
        fact = latest.get(related) if related else None
        cal_store.create(related_fact_id=fact.id if fact is not None else None, now=created, **ev)
    lap("calendar")
    return {
        "messages": n_loaded,
        "sessions": n_sessions,
        "actions": len(specs_actions),
        "notes": len(note_specs),
        "facts": n_fact_rows,
        "skills": len(specs),
        "calendar_events": len(events_cal),
        "schedules": n_sched,
    }
