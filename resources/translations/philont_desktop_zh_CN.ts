<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <location filename="../../philont_desktop/audit/widgets/detail.py" line="+26"/>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Refers to</source>
        <translation>对应条目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/text.py" line="+31"/>
        <source>never (pinned)</source>
        <translation>从不（已固定）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{0}, pinned</source>
        <translation>{0}，已固定</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>{0} d</source>
        <translation>{0} 天</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/widgets/diff.py" line="+139"/>
        <source>unchanged</source>
        <translation>未改变</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/timeline/search.py" line="+266"/>
        <source>full-text</source>
        <translation>全文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>substring</source>
        <translation>子串</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/widgets/error_dialog.py" line="+40"/>
        <source>The operating system reported: {0}{1}.</source>
        <translation>操作系统报告：{0}{1}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Something went wrong: {0}</source>
        <translation>出错了：{0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong ({0}).</source>
        <translation>出错了（{0}）。</translation>
    </message>
    <message>
        <location line="+57"/>
        <location line="+17"/>
        <source>Show details</source>
        <translation>显示详情</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Copy details</source>
        <translation>复制详情</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Hide details</source>
        <translation>隐藏详情</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/messages.py" line="+100"/>
        <source>draft</source>
        <extracomment>``render(code, params, english)``: a code&apos;s text, ``None`` for a code the area has no template for</extracomment>
        <translation>草稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stable</source>
        <translation>稳定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>playbook</source>
        <translation>手册</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>deprecated</source>
        <translation>已弃用</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>no success</source>
        <translation>没有成功</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{0} success(es)</source>
        <translation>成功 {0} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no failure</source>
        <translation>没有失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{0} failure(s)</source>
        <translation>失败 {0} 次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{0} and {1}</source>
        <translation>{0}，{1}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (the last one)</source>
        <translation>（最近一次为失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> (the last {0} in a row)</source>
        <translation>（最近连续 {0} 次）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="+466"/>
        <source>no run of successes can promote it, as confirmation needs zero failures</source>
        <translation>连续成功也无法使其升级，因为升为已确认要求没有任何失败</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>successes keep it stable</source>
        <translation>成功会使其保持稳定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the next failure deprecates it</source>
        <translation>下一次失败将使其被弃用</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>set by hand or by reflection, and successes never change it</source>
        <translation>由手动或反思设定，成功不会改变它</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>final for outcomes: no success or failure changes it</source>
        <translation>结果已无法改变它：成功或失败都不会影响</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>only setting the grade by hand or revising the recipe (which restarts it as draft) brings it back</source>
        <translation>只有手动设置等级或修订流程（会从草稿重新开始）才能使其恢复</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/messages.py" line="+49"/>
        <location line="+194"/>
        <source>; </source>
        <extracomment>Codes whose core English names database columns (``decay_tau_days is 45``): the English interface words them from their templates too, so that a person reads the fields&apos; names (``τ (days) is now 45``).</extracomment>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="-398"/>
        <source>the database directory cannot be written</source>
        <translation>数据库所在目录不可写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file is not writable</source>
        <translation>文件不可写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the directory is not writable</source>
        <translation>目录不可写</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>No database file exists at this path.</source>
        <translation>此路径下没有数据库文件。</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>This path is a directory, not a database file.</source>
        <translation>此路径是一个目录，而不是数据库文件。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The file cannot be read: permission denied.</source>
        <translation>无法读取文件：权限不足。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The file is empty (0 bytes): it holds no database.</source>
        <translation>文件为空（0 字节）：其中没有数据库。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This is not an SQLite database (the file does not start with the SQLite header).</source>
        <translation>这不是 SQLite 数据库（文件开头没有 SQLite 文件头）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The file is truncated: its SQLite header is incomplete.</source>
        <translation>文件被截断：其 SQLite 文件头不完整。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A file already exists at this path; it was left alone.</source>
        <translation>此路径已存在文件；未做任何改动。</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>Recall found nothing: no full-text query could be made and no message contains the whole text.</source>
        <translation>召回一无所获：无法构造全文查询，也没有任何消息包含整段文字。</translation>
    </message>
    <message>
        <location line="+269"/>
        <source>The directory cannot be written and has no -shm file: the database is opened with immutable=1, so changes made by the agent while the app runs will not be seen.</source>
        <translation>目录不可写且没有 -shm 文件：数据库以 immutable=1 方式打开，因此程序运行期间智能体所做的更改将不可见。</translation>
    </message>
    <message>
        <source>No difference recorded.</source>
        <translation>未记录任何差异。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/recovery.py" line="+316"/>
        <source>(browsed through a private copy: {0})</source>
        <extracomment>``factory(settings, theme, read_only=True, interactive=..., live_interval_ms=...)``: a new main window</extracomment>
        <translation>（通过私有副本浏览：{0}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This is the backup {0}, shown read-only for comparing.{1}</source>
        <translation>这是备份 {0}，以只读方式显示以便对比。{1}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backup {0}{1} [read-only] — {2}</source>
        <translation>备份 {0}{1} [只读] — {2}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Copying {0} to a private folder to browse it…</source>
        <translation>正在将 {0} 复制到私有文件夹以便浏览…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The backup cannot be opened</source>
        <translation>无法打开该备份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copying the backup</source>
        <translation>正在复制备份</translation>
    </message>
    <message>
        <location line="-174"/>
        <source>Restoring {0} from {1}…</source>
        <translation>正在从 {1} 恢复 {0}…</translation>
    </message>
    <message>
        <location line="-104"/>
        <source>Restored {0} from {1}. The replaced content was backed up to {2}.</source>
        <translation>已从 {1} 恢复 {0}。被替换的内容已备份到 {2}。</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Backup restored</source>
        <translation>备份已恢复</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>The backup was not restored</source>
        <translation>备份未恢复</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>Restoring a backup</source>
        <translation>正在恢复备份</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/backup_texts.py" line="+26"/>
        <source>not an SQLite database</source>
        <translation>不是 SQLite 数据库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>empty</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>truncated</source>
        <translation>被截断</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+25"/>
        <source>missing</source>
        <translation>不存在</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>FIFO</source>
        <translation>FIFO 管道</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>device</source>
        <translation>设备文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>special file</source>
        <translation>特殊文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreadable entry</source>
        <translation>无法读取的条目</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>quick integrity check: {0}</source>
        <translation>快速完整性检查：{0}</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>The restored database fails the quick integrity check ({0}); the replaced file is kept in {1}.</source>
        <translation>恢复后的数据库未通过快速完整性检查（{0}）；被替换的文件保存在 {1}。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>{0} seems to be in use: its -wal file was written {1} s ago (probably by the agent). Stop the agent, wait a few seconds and try again. Nothing was changed.</source>
        <translation>{0} 似乎正在被使用：它的 -wal 文件在 {1} 秒前被写入（可能是智能体）。请停止智能体，等几秒后再试。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{0} is open in another program (probably the agent). Stop the agent (and close other windows or tools that show this file), then try again. Nothing was changed.</source>
        <translation>{0} 正被另一个程序打开（可能是智能体）。请停止智能体（并关闭显示此文件的其他窗口或工具），然后再试。没有做任何更改。</translation>
    </message>
    <message>
        <location line="-87"/>
        <source>The backup {0} cannot be restored: {1}. Nothing was changed.</source>
        <translation>备份 {0} 无法恢复：{1}。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The backup {0} has schema version {1}, newer than this version understands ({2}); it is not restored. Nothing was changed.</source>
        <translation>备份 {0} 的架构版本为 {1}，比本版本能理解的版本（{2}）更新；未恢复。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The backup and the database are the same file.</source>
        <translation>备份和数据库是同一个文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} cannot be read ({1}). Nothing was changed.</source>
        <translation>无法读取 {0}（{1}）。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folder of {0} cannot be written, so nothing can be restored there.</source>
        <translation>{0} 所在的文件夹不可写入，因此无法在那里恢复。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The damaged file {0} could not be moved into the backups folder ({1}). Nothing was changed.</source>
        <translation>无法把损坏的文件 {0} 移到备份文件夹（{1}）。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A new file appeared at {0} during the restore (did the agent start?); it was left alone. The restored copy is {1}.</source>
        <translation>恢复期间 {0} 处出现了一个新文件（智能体启动了吗？）；它未被改动。恢复出的副本是 {1}。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The backup {0} does not exist.</source>
        <translation>备份 {0} 不存在。</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>{0} seems to be in use: it was written while the restore looked at it (probably by the agent, which may open a connection for each write). Stop the agent, wait a few seconds and try again. Nothing was changed.</source>
        <translation>{0} 似乎正在被使用：恢复检查它的期间它被写入了（可能是智能体，它可能每次写入都打开一个新连接）。请停止智能体，等几秒后再试。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The damaged file {0} could not be moved into the backups folder ({1}), and moving back what was moved failed too: {2} stayed there, byte for byte. Move them back beside the database before anything else.</source>
        <translation>无法将损坏的文件 {0} 移入备份文件夹（{1}），而且把已移走的文件移回也失败了：{2} 仍留在那里，内容逐字节未变。请先把它们移回数据库旁边，再做其他操作。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{0} is a {1}, not a database file: nothing can be restored there.</source>
        <translation>{0} 是{1}，不是数据库文件：无法在那里恢复。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{0} is a {1}, not a backup file; it was not opened.</source>
        <translation>{0} 是{1}，不是备份文件；未打开它。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/recovery.py" line="-122"/>
        <source>Restored {0} from {1}: there was no file, so it was created from the backup.</source>
        <translation>已从 {1} 恢复 {0}：原来没有文件，因此根据备份新建了它。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Restored {0} from {1}: there was no file. The files left at that path were moved, unchanged, to {2}.</source>
        <translation>已从 {1} 恢复 {0}：原来没有文件。该路径上遗留的文件已原样移到 {2}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restored {0} from {1}. The damaged file ({2}) was moved, unchanged, to {3}.</source>
        <translation>已从 {1} 恢复 {0}。损坏的文件（{2}）已原样移到 {3}。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The current file is kept in {0}: backed up first, or, when it is damaged, moved there unchanged.</source>
        <translation>当前文件会保存在 {0}：先做备份；如果它已损坏，则原样移到那里。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file there cannot be opened ({0}). It is not deleted: it is moved, unchanged and with its -wal and -shm files, into {1}.</source>
        <translation>那里的文件无法打开（{0}）。它不会被删除：它会连同 -wal 和 -shm 文件一起原样移到 {1}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace the database

    {0}

with the backup

    {1}?

{2} The agent must not be running: the restore is refused while another program has the database open.</source>
        <translation>将数据库

    {0}

替换为备份

    {1} 吗？

{2}智能体必须处于未运行状态：只要有其他程序打开着该数据库，恢复就会被拒绝。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+102"/>
        <location line="+34"/>
        <source>The database cannot be opened</source>
        <translation>无法打开数据库</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Restore this backup…</source>
        <translation>恢复这份备份…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the backup read-only</source>
        <translation>以只读方式打开这份备份</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/backup_texts.py" line="-120"/>
        <source>The file is empty.</source>
        <translation>文件是空的。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not an SQLite database.</source>
        <translation>不是 SQLite 数据库。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is truncated.</source>
        <translation>文件被截断了。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file cannot be read.</source>
        <translation>无法读取该文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>cannot be read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not a memory database: missing {0}</source>
        <translation>不是记忆数据库：缺少 {0}</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>not a regular file ({0}): never opened</source>
        <translation>不是普通文件（{0}）：从不打开</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="-344"/>
        <source>the database has no schema version; it is shown read-only and never stamped</source>
        <translation>数据库没有架构版本；将以只读方式显示，且不会写入版本标记</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/widgets/conversations.py" line="+49"/>
        <source>Web</source>
        <translation>网页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>WeChat</source>
        <translation>微信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Telegram</source>
        <translation>Telegram</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduled task</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Background run</source>
        <translation>后台运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown origin</source>
        <translation>来源未知</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Listing conversations</source>
        <translation>正在列出对话</translation>
    </message>
    <message>
        <source>“{0}”</source>
        <translation>“{0}”</translation>
    </message>
    <message>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/messages.py" line="-255"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>The message has %n character(s); the agent searches only from 2.</source>
        <translation>消息只有 %n 个字符；智能体从 2 个字符起才搜索。</translation>
    </message>
    <message>
        <source>The recall budget is 0: the agent does not search.</source>
        <translation>召回预算为 0：智能体不搜索。</translation>
    </message>
    <message>
        <source>Nothing is left of the message once &apos; &quot; * ( ) are removed: the agent does not search.</source>
        <translation>去掉 &apos; &quot; * ( ) 之后消息什么也不剩：智能体不搜索。</translation>
    </message>
    <message>
        <source>The agent&apos;s search returned %n message(s) (it asks for {limit} at most); {recalled} recalled.</source>
        <translation>智能体的搜索返回了 %n 条消息（最多取 {limit} 条），召回 {recalled} 条。</translation>
    </message>
    <message>
        <source>The agent&apos;s search found %n message(s), all already among the recent messages.</source>
        <translation>智能体的搜索找到 %n 条消息，全都已在近期消息中。</translation>
    </message>
    <message>
        <source>The agent&apos;s search found %n message(s); those that fit are system messages, which the agent drops.</source>
        <translation>智能体的搜索找到 %n 条消息；放得下的都是系统消息，智能体会丢弃它们。</translation>
    </message>
    <message>
        <source>The full-text query failed (SQLite: {error}), so the agent&apos;s search looked for the whole message as one piece of text, and no message contains it.</source>
        <translation>全文查询失败（SQLite：{error}），于是智能体的搜索把整条消息当作一段文字来找，没有任何消息包含它。</translation>
    </message>
    <message>
        <source>No message contains every word of the message (full-text search), and none contains the whole message as one piece of text.</source>
        <translation>没有消息同时包含这条消息的每个词（全文搜索），也没有消息把整条消息作为一段文字包含在内。</translation>
    </message>
    <message>
        <source>The message is shorter than 3 characters, too short for the full-text index, and no message contains it.</source>
        <translation>消息不足 3 个字符，全文索引无法查找，且没有消息包含它。</translation>
    </message>
    <message>
        <source>Proven, not scanned: the full-text query found no message with every word, so none can contain the whole text.</source>
        <translation>已证明，未扫描：全文查询没有找到包含每个词的消息，所以不可能有消息包含整段文字。</translation>
    </message>
    <message>
        <source>Proven, not scanned: no message contains all of {pieces}, so none can contain the whole text.</source>
        <translation>已证明，未扫描：没有消息同时包含 {pieces}，所以不可能有消息包含整段文字。</translation>
    </message>
    <message>
        <source>Answered from the index, not scanned: all of {pieces} are in %n message(s); the whole text is in {rows} of them.</source>
        <translation>由索引回答，未扫描：{pieces} 同时出现在 %n 条消息中；其中 {rows} 条包含整段文字。</translation>
    </message>
    <message>
        <source>Scanned every message: no part of the text has 3 characters, the least the full-text index can look up.</source>
        <translation>扫描了每条消息：文字中没有任何部分达到 3 个字符，而全文索引至少需要 3 个字符才能查找。</translation>
    </message>
    <message>
        <source>Scanned every message: the full-text index is not provably in step with the messages.</source>
        <translation>扫描了每条消息：无法证明全文索引与消息保持同步。</translation>
    </message>
    <message>
        <source>Scanned every message: more than {cap} messages contain all of {pieces}.</source>
        <translation>扫描了每条消息：同时包含 {pieces} 的消息超过 {cap} 条。</translation>
    </message>
    <message>
        <source>Scanned every message: the index lookup failed ({error}).</source>
        <translation>扫描了每条消息：索引查找失败（{error}）。</translation>
    </message>
    <message>
        <source>Scanned every message: the text holds a character the index lookup cannot take.</source>
        <translation>扫描了每条消息：文字中含有索引查找无法处理的字符。</translation>
    </message>
    <message>
        <source>The full-text index covers every message (rowids {first}–{last}), so a full-text miss proves a substring miss.</source>
        <translation>全文索引覆盖每条消息（rowid {first}–{last}），所以全文查询没有命中就证明子串也不会命中。</translation>
    </message>
    <message>
        <source>There are no messages.</source>
        <translation>没有任何消息。</translation>
    </message>
    <message>
        <source>The full-text table is missing.</source>
        <translation>全文索引表不存在。</translation>
    </message>
    <message>
        <source>The full-text table is not the case-insensitive trigram index of the message text ({detail}).</source>
        <translation>全文索引表不是消息文本的不区分大小写的三元组索引（{detail}）。</translation>
    </message>
    <message>
        <source>The triggers that keep the full-text index in step are not the agent&apos;s ({detail}).</source>
        <translation>保持全文索引同步的触发器与智能体的不同（{detail}）。</translation>
    </message>
    <message>
        <source>Messages {first}–{last} are not all inside the indexed range {indexed_first}–{indexed_last}: some were written without the full-text trigger, or their index rows were deleted.</source>
        <translation>消息 {first}–{last} 并不都在已索引的范围 {indexed_first}–{indexed_last} 内：有些写入时没有经过全文触发器，或者它们的索引行被删除了。</translation>
    </message>
    <message>
        <source>The index holds {indexed} documents for rowids {indexed_first}–{indexed_last}: deleted messages or index rows leave gaps, so it cannot be checked cheaply that every message is indexed.</source>
        <translation>索引为 rowid {indexed_first}–{indexed_last} 保存了 {indexed} 个文档：删除的消息或索引行留下了空缺，无法低成本地确认每条消息都已索引。</translation>
    </message>
    <message>
        <source>The full-text index&apos;s bookkeeping could not be read ({detail}).</source>
        <translation>无法读取全文索引的记录信息（{detail}）。</translation>
    </message>
    <message>
        <source>Words of the message are in other messages ({words}), but the agent&apos;s search needs them all in one message, in the message&apos;s exact order.</source>
        <translation>消息中的词出现在其他消息里（{words}），但智能体的搜索要求它们全部按原顺序出现在同一条消息中。</translation>
    </message>
    <message>
        <source>Words of the message are in other messages ({words}), but no message contains all of them.</source>
        <translation>消息中的词出现在其他消息里（{words}），但没有一条消息同时包含它们全部。</translation>
    </message>
    <message>
        <source>No word of the message (function words aside) is in any message.</source>
        <translation>除虚词外，消息中的词没有出现在任何消息里。</translation>
    </message>
    <message>
        <source>A keyword query such as {query} would find %n message(s) in {sessions}.</source>
        <translation>像 {query} 这样的关键词查询会在 {sessions}中找到 %n 条消息。</translation>
    </message>
    <message>
        <source>%n session(s)</source>
        <translation>%n 个会话</translation>
    </message>
    <message>
        <source>A keyword query such as {query} would find nothing either.</source>
        <translation>像 {query} 这样的关键词查询同样什么也找不到。</translation>
    </message>
    <message>
        <source>The message has no keyword to search for.</source>
        <translation>这条消息没有可搜索的关键词。</translation>
    </message>
    <message>
        <source>A keyword query such as {query} would need a scan of every message (no part of 3 characters, or the index is not provably in step); it is not run here.</source>
        <translation>像 {query} 这样的关键词查询需要扫描每条消息（没有 3 个字符的部分，或无法证明索引同步）；这里不运行它。</translation>
    </message>
    <message>
        <source>under 3 characters, the index cannot look them up: {words}</source>
        <translation>不足 3 个字符，索引无法查找：{words}</translation>
    </message>
    <message>
        <source>common words, not counted: {words}</source>
        <translation>常用词，不计数：{words}</translation>
    </message>
    <message>
        <source>not counted, the index is not provably in step: {words}</source>
        <translation>未计数，无法证明索引同步：{words}</translation>
    </message>
    <message>
        <source>not counted (only the first 8 words are): {words}</source>
        <translation>未计数（只统计前 8 个词）：{words}</translation>
    </message>
    <message>
        <source>full-text search (trigram index)</source>
        <translation>全文搜索（三元组索引）</translation>
    </message>
    <message>
        <source>substring search, proven from the full-text index: no message was scanned</source>
        <translation>子串搜索，由全文索引证明：没有扫描任何消息</translation>
    </message>
    <message>
        <source>substring search: every message was scanned</source>
        <translation>子串搜索：扫描了每条消息</translation>
    </message>
    <message>
        <source>substring search</source>
        <translation>子串搜索</translation>
    </message>
    <message>
        <source>no search: nothing is left of the message</source>
        <translation>不搜索：消息什么也不剩</translation>
    </message>
    <message>
        <source>no search</source>
        <translation>不搜索</translation>
    </message>
    <message>
        <source>Runtime environment</source>
        <translation>运行环境</translation>
    </message>
    <message>
        <source>Project plan.md</source>
        <translation>项目 plan.md</translation>
    </message>
    <message>
        <source>Active project plan</source>
        <translation>当前项目计划</translation>
    </message>
    <message>
        <source>Task mode (fast)</source>
        <translation>任务模式（快速）</translation>
    </message>
    <message>
        <source>Known user information</source>
        <translation>已知用户信息</translation>
    </message>
    <message>
        <source>Known project information</source>
        <translation>已知项目信息</translation>
    </message>
    <message>
        <source>Extended capabilities</source>
        <translation>扩展能力</translation>
    </message>
    <message>
        <source>Skill index</source>
        <translation>技能索引</translation>
    </message>
    <message>
        <source>Past failure patterns</source>
        <translation>过往失败模式</translation>
    </message>
    <message>
        <source>Lessons learned</source>
        <translation>经验教训</translation>
    </message>
    <message>
        <source>Corrected behaviours (negative skills)</source>
        <translation>已纠正的行为（负面技能）</translation>
    </message>
    <message>
        <source>Who I am now</source>
        <translation>当前的自我</translation>
    </message>
    <message>
        <source>Recent runs of this schedule</source>
        <translation>此计划任务最近的运行</translation>
    </message>
    <message>
        <source>Recently uploaded files</source>
        <translation>最近上传的文件</translation>
    </message>
    <message>
        <source>Resources fetched earlier</source>
        <translation>之前获取的资源</translation>
    </message>
    <message>
        <source>Signals and interrupts</source>
        <translation>信号与中断</translation>
    </message>
    <message>
        <source>Autonomous self-correction review</source>
        <translation>自主纠错回顾</translation>
    </message>
    <message>
        <source>Autonomous research progress</source>
        <translation>自主研究进展</translation>
    </message>
    <message>
        <source>Pending research approvals</source>
        <translation>待批准的研究</translation>
    </message>
    <message>
        <source>Deep-reasoning progress</source>
        <translation>深度推理进展</translation>
    </message>
    <message>
        <source>User-pattern observations</source>
        <translation>用户模式观察</translation>
    </message>
    <message>
        <source>over the token budget</source>
        <translation>超出 token 预算</translation>
    </message>
    <message>
        <source>already among the recent messages</source>
        <translation>已在近期消息中</translation>
    </message>
    <message>
        <source>system message (counted, not shown)</source>
        <translation>系统消息（计入，不显示）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/recall/texts.py" line="+24"/>
        <source>query failed</source>
        <translation>查询失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no shared words</source>
        <translation>没有共同的词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>cut by the budget</source>
        <translation>被预算截掉</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>beyond the candidate limit</source>
        <translation>超出候选数量上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>restricted to a session</source>
        <translation>限于一个会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+22"/>
        <source>no recall ran</source>
        <translation>未进行召回</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>written after the turn</source>
        <translation>写于该轮次之后</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the agent&apos;s query</source>
        <translation>智能体自己的查询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rare words ORed</source>
        <translation>罕见词 OR 组合</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rare words ORed, wider</source>
        <translation>罕见词 OR 组合，更宽</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>full-text search</source>
        <translation>全文搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>substring scan</source>
        <translation>子串扫描</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>substring, answered from the index</source>
        <translation>子串，由索引回答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing left to search for</source>
        <translation>没有可搜索的内容</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the saved result was made with other settings</source>
        <translation>保存的结果是用其他设置得出的</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the file was replaced since the result was saved</source>
        <translation>保存结果之后文件被替换了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the history changed since the result was saved</source>
        <translation>保存结果之后历史发生了变化</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{0}%</source>
        <translation>{0}%</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No replay saved yet for this file.</source>
        <translation>此文件还没有保存的重放。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The history is empty: there are no user turns to replay.</source>
        <translation>历史为空：没有可重放的用户轮次。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There are no user turns in this history: nothing to replay.</source>
        <translation>此历史中没有用户轮次：没有可重放的内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} user turns replayed, each as the agent computed it then (exact).</source>
        <translation>已重放 {0} 个用户轮次，每个都按智能体当时的计算（精确）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} of them needed an earlier message from outside the recent messages. This is an estimate (silver labels): the message shares a rare word with the turn, not a judgement of a person or a model.</source>
        <translation>其中 {0} 个轮次需要最近消息之外的早先消息。这是估计（银标签）：该消息与轮次共有一个罕见词，而不是人或模型的判断。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Recall brought a needed message back in {0} of them: hit rate {1} (95% interval {2} to {3} from the number of turns alone; the labels add their own error).</source>
        <translation>其中 {0} 个轮次的召回找回了所需的消息：命中率 {1}（仅按轮次数计算的 95% 区间为 {2} 到 {3}；标注本身还有误差）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The rare-words strategies query with the very words that label a turn as needing a message: read their hit rates as an upper bound, and their tokens per hit as the price.</source>
        <translation>罕见词策略用的查询词正是把轮次标为“需要消息”的那些词：请把它们的命中率看作上限，把每次命中的 token 数看作代价。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Showing the saved result.</source>
        <translation>显示已保存的结果。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Up to date: no new user turns since the saved result.</source>
        <translation>已是最新：保存结果之后没有新的用户轮次。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Up to date: {0} new user turns replayed.</source>
        <translation>已是最新：重放了 {0} 个新的用户轮次。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replayed every user turn again: {0}.</source>
        <translation>已重新重放每个用户轮次：{0}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replayed {0} user turns; the result is saved beside your other app data.</source>
        <translation>已重放 {0} 个用户轮次；结果保存在应用的其他数据旁边。</translation>
    </message>
    <message>
        <source>over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>already recent</source>
        <translation>已在近期中</translation>
    </message>
    <message>
        <source>system message</source>
        <translation>系统消息</translation>
    </message>
    <message>
        <source>candidate limit</source>
        <translation>候选上限</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>recent</source>
        <translation>近期</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <source>Skills are shown with today&apos;s counters, maturity and descriptions; only skills created later are left out, and deleted skills are missing.</source>
        <translation>技能显示的是今天的计数、等级和描述；只排除之后才创建的技能，已删除的技能则不会出现。</translation>
    </message>
    <message>
        <source>Facts read after that moment are ordered by their creation time (their last access then is not recorded).</source>
        <translation>在那之后被读取过的事实按创建时间排序（当时的最后访问时间没有记录）。</translation>
    </message>
    <message>
        <source>A fact forgotten and restored since, or a row edited in place, shows its current state.</source>
        <translation>之后被遗忘又恢复的事实，或被原地编辑的行，显示的是其当前状态。</translation>
    </message>
    <message>
        <source>Scheduled tasks are read as they are now.</source>
        <translation>计划任务按其当前状态读取。</translation>
    </message>
    <message>
        <source>Recent messages: tokens</source>
        <translation>近期消息：token</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>Recalled messages: tokens</source>
        <translation>召回消息：token</translation>
    </message>
    <message>
        <source>Recent messages: count</source>
        <translation>近期消息：条数</translation>
    </message>
    <message>
        <source>messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Recall candidates</source>
        <translation>召回候选</translation>
    </message>
    <message>
        <source>candidates</source>
        <translation>个候选</translation>
    </message>
    <message>
        <source>Memory prefix: characters (cap)</source>
        <translation>记忆前缀：字符数（上限）</translation>
    </message>
    <message>
        <source>chars</source>
        <translation>字符</translation>
    </message>
    <message>
        <source>shown</source>
        <translation>已显示</translation>
    </message>
    <message>
        <source>system messages (counted, not shown)</source>
        <translation>系统消息（计入，不显示）</translation>
    </message>
    <message>
        <source>recalled</source>
        <translation>已召回</translation>
    </message>
    <message>
        <source>skipped (already recent or over budget)</source>
        <translation>已跳过（已在近期消息中或超出预算）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/calendar/words.py" line="+28"/>
        <source>every week</source>
        <translation>每周</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every day</source>
        <translation>每天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every hour</source>
        <translation>每小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every minute</source>
        <translation>每分钟</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>every millisecond</source>
        <translation>每毫秒</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>d MMMM</source>
        <translation>M月d日</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>d MMMM yyyy</source>
        <translation>yyyy年M月d日</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>once</source>
        <translation>一次</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>weekly on {0}</source>
        <translation>每{0}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{0} until {1}</source>
        <translation>{0}，直到 {1}</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/task_words.py" line="+15"/>
        <source>reminder message</source>
        <translation>提醒消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool call</source>
        <translation>调用工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>reflection</source>
        <translation>反思</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>agent turn (acts on its own)</source>
        <translation>智能体自主执行一轮</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/calendar/words.py" line="+20"/>
        <source>the agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Stored as: {0}</source>
        <translation>存储值：{0}</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>once (rule not understood: {0})</source>
        <translation>一次（无法理解的规则：{0}）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/audit/widgets/detail.py" line="-7"/>
        <source>Row</source>
        <translation>数据行</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Hide the raw JSON</source>
        <translation>隐藏原始 JSON</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the raw JSON (before → after)</source>
        <translation>显示原始 JSON（修改前 → 修改后）</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>The fact {key}</source>
        <translation>事实 {key}</translation>
    </message>
    <message>
        <source>Skill #{id}</source>
        <translation>技能 #{id}</translation>
    </message>
    <message>
        <source>This message</source>
        <translation>这条消息</translation>
    </message>
    <message>
        <source>{row} cannot be read by the agent ({columns}): its own reading of this layer fails on this row. Shown here as stored.</source>
        <translation>智能体无法读取{row}（{columns}）：它自己读取这一层时会在这一行上失败。此处按存储原样显示。</translation>
    </message>
    <message>
        <source>{row}: {columns} holds bytes that are not UTF-8; the agent reads them as U+FFFD (�), as shown.</source>
        <translation>{row}：{columns} 含有不是 UTF-8 的字节；智能体把它们读作 U+FFFD（�），如此处所示。</translation>
    </message>
    <message>
        <source>{row} has damaged values ({columns}); the agent reads them as stored, so what it makes of this row can differ from what is shown here.</source>
        <translation>{row}有损坏的值（{columns}）；智能体按存储原样读取，因此它对这一行的理解可能与此处显示的不同。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="+388"/>
        <source>{n} more success(es) with no failure: confirmed (a failure rules confirmation out)</source>
        <translation>再成功 {n} 次且没有失败：升为已确认（一旦失败便无法确认）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} more success(es): stable</source>
        <translation>再成功 {n} 次：升为稳定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} more successes in a row: stable</source>
        <translation>再连续成功 {n} 次：升为稳定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>1 failure: back to {grade}</source>
        <translation>失败 1 次：退回{grade}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} failure(s): deprecated</source>
        <translation>失败 {n} 次：弃用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} failures in a row: deprecated</source>
        <translation>连续失败 {n} 次：弃用</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{n} more failure(s) deprecate it</source>
        <translation>再失败 {n} 次将使其被弃用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} more failures in a row deprecate it</source>
        <translation>再连续失败 {n} 次将使其被弃用</translation>
    </message>
    <message>
        <location line="-459"/>
        <source>This path names {kind}.</source>
        <translation>此路径指向{kind}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No database file exists at this path. It starts with &apos;~{user}&apos;, which names no user or home folder on this machine, so it was taken as written.</source>
        <translation>此路径下没有数据库文件。路径以 &apos;~{user}&apos; 开头，而本机没有对应的用户或主目录，因此按原样使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This is {kind}, not a database file; it was not opened.</source>
        <translation>这是{kind}，不是数据库文件；未打开它。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This is not a regular file; it was not read.</source>
        <translation>这不是普通文件；未读取它。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The file cannot be read: {error}.</source>
        <translation>无法读取文件：{error}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The file is truncated: the header declares {pages} pages of {page_size} bytes ({expected} bytes) but the file has {size} bytes.</source>
        <translation>文件被截断：文件头声明有 {pages} 页、每页 {page_size} 字节（共 {expected} 字节），但文件只有 {size} 字节。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A new database cannot be created here: this path names {kind}.</source>
        <translation>无法在此创建新数据库：此路径指向{kind}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{names} exist(s) without a database: left by a database that was moved or deleted, and SQLite would merge them into a new one. Move them away first; nothing was written.</source>
        <translation>{names} 存在但没有对应的数据库：它们来自一个已被移动或删除的数据库，SQLite 会把它们合并进新数据库。请先把它们移走；未写入任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This is no longer the file that was opened: another file has taken its place (it was replaced, or deleted and created again). Nothing was read from or written to it; open it again to see it.</source>
        <translation>这已不是当初打开的文件：另一个文件取代了它（被替换，或被删除后重新创建）。没有从中读取或写入任何内容；请重新打开以查看它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This is not an SQLite database ({error}).</source>
        <translation>这不是 SQLite 数据库（{error}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The database is damaged ({error}).</source>
        <translation>数据库已损坏（{error}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The database cannot be opened ({error}).</source>
        <translation>无法打开数据库（{error}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The database cannot be read ({error}).</source>
        <translation>无法读取数据库（{error}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> The newest backup that passes the quick integrity check is {backup} (written by this app).</source>
        <translation>最新的通过快速完整性检查的备份是 {backup}（由本应用写入）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> The newest backup that passes the quick integrity check is {backup} (the agent&apos;s).</source>
        <translation>最新的通过快速完整性检查的备份是 {backup}（智能体的备份）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>the database has schema version {version}, newer than {max_known}, which this version understands; it is shown read-only and never re-stamped</source>
        <translation>数据库的架构版本为 {version}，比本版本支持的 {max_known} 更新；将以只读方式显示，且不会改写版本标记</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the database has schema version {version}, older than {min_known}; this version does not migrate it, so it is shown read-only</source>
        <translation>数据库的架构版本为 {version}，早于 {min_known}；本版本不会迁移它，因此以只读方式显示</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the database&apos;s schema version {value} is not a version number; it is shown read-only and never re-stamped</source>
        <translation>数据库的架构版本 {value} 不是有效的版本号；将以只读方式显示，且不会改写版本标记</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>core tables are missing: {names}</source>
        <translation>缺少核心表：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>core columns are missing: {names}</source>
        <translation>缺少核心列：{names}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>full-text tables are missing: {names}</source>
        <translation>缺少全文索引表：{names}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The database is open read-only.</source>
        <translation>数据库以只读方式打开。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Writing is refused: {reason}.</source>
        <translation>写入被拒绝：{reason}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path} could not be used and was set aside as {moved_to}: {reason}. A new one is made when needed.</source>
        <translation>{path} 无法使用，已移到一旁，改名为 {moved_to}：{reason}。需要时会新建一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it is {kind}, not a regular file (reading it could wait forever)</source>
        <translation>它是{kind}，不是普通文件（读取它可能会永远等待）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>it holds more than {max_bytes} bytes</source>
        <translation>它超过 {max_bytes} 字节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it cannot be read ({error})</source>
        <translation>无法读取它（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not UTF-8 text</source>
        <translation>它不是 UTF-8 文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not valid JSON ({error})</source>
        <translation>它不是有效的 JSON（{error}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its JSON nests too deep</source>
        <translation>它的 JSON 嵌套太深</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its JSON holds a number beyond the range of a double</source>
        <translation>它的 JSON 含有超出双精度浮点数范围的数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its content is not what it should hold ({error})</source>
        <translation>它的内容不是应有的格式（{error}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path}: writing is refused: the file is not writable.</source>
        <translation>{path}：写入被拒绝：文件不可写。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{path}: writing is refused: its directory is not writable.</source>
        <translation>{path}：写入被拒绝：其所在目录不可写。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path}: the database has been closed; open it again to use it.</source>
        <translation>{path}：数据库已关闭；请重新打开后再使用。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path}: nothing can be written there: this path names {kind}; only a regular file is ever replaced.</source>
        <translation>{path}：无法写到那里：此路径指向{kind}；只有普通文件才会被替换。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>An in-memory database has no backups.</source>
        <translation>内存数据库没有备份。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The copy was cancelled.</source>
        <translation>复制已取消。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No free backup name in {dir}.</source>
        <translation>{dir} 中已没有可用的备份文件名。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The backups folder {path} cannot be written (backups, and the files a restore moves aside, are kept there). Nothing was changed.</source>
        <translation>备份文件夹 {path} 不可写（备份以及恢复时移开的文件都保存在这里）。未做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The backups folder {path} is a symbolic link loop (a link that leads back to itself), so nothing can be kept there. Nothing was changed.</source>
        <translation>备份文件夹 {path} 是一个符号链接循环（链接又指回它自己），因此无法在其中保存任何文件。未做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The backups folder {path} is not a folder (this path names {kind}), so nothing can be kept there. Nothing was changed.</source>
        <translation>备份文件夹 {path} 不是文件夹（此路径指向{kind}），因此无法在其中保存任何文件。未做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Compare a backup with the database or with another backup, not both or neither.</source>
        <translation>请把备份与数据库或另一个备份比较：二者只能选其一。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+282"/>
        <source>Unknown layer {layer} (one of {layers}).</source>
        <translation>未知的层 {layer}（可选：{layers}）。</translation>
    </message>
    <message>
        <location line="-281"/>
        <source>The comparison was cancelled.</source>
        <translation>比较已取消。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The backup {path} cannot be read ({error}); it may be damaged. Nothing was compared.</source>
        <translation>无法读取备份 {path}（{error}），它可能已损坏。未进行比较。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The backup {path} is not a memory database (it has none of the memory tables). Nothing was compared.</source>
        <translation>备份 {path} 不是记忆数据库（其中没有任何记忆表）。未进行比较。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Unknown strategy {strategy} (one of {known}).</source>
        <translation>未知的策略 {strategy}（可选：{known}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The saved replay covers every conversation and cannot answer for one ({origin}): replay that conversation&apos;s turns instead.</source>
        <translation>保存的回放涵盖所有对话，无法单独回答某一个对话（{origin}）：请改为回放该对话的轮次。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The saved replay could not be read ({error}); it was set aside: the next run replays every turn.</source>
        <translation>无法读取保存的回放（{error}），已将其移到一旁：下次运行将重新回放每一轮。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message #{id} was written after this turn (its time is earlier, its id later): recall could not have seen it.</source>
        <translation>消息 #{id} 是在这一轮之后写入的（时间更早，编号更大）：召回当时不可能看到它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recall was restricted to this scheduled session; message #{id} is in {session}.</source>
        <translation>召回被限制在这个定时会话内；消息 #{id} 在 {session} 中。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No recall ran: the message is too short or the recall budget is 0.</source>
        <translation>没有进行召回：消息太短，或召回预算为 0。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Message #{id} matched, but {limit} newer matches filled the candidate limit.</source>
        <translation>消息 #{id} 匹配了，但 {limit} 条更新的匹配占满了候选上限。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message #{id} was found, then cut by the recall budget ({tokens} tokens short).</source>
        <translation>消息 #{id} 被找到了，但因召回预算被截掉（差 {tokens} 个词元）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Message #{id} does not contain every word of the query (missing: {missing}).</source>
        <translation>消息 #{id} 并不包含查询中的每个词（缺少：{missing}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{path} is a folder; choose a file name to export to.</source>
        <translation>{path} 是一个文件夹；请选择要导出到的文件名。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The {field} must be between -8.64e15 and 8.64e15 (what a date holds); {value} is out of range.</source>
        <translation>{field} 必须在 -8.64e15 到 8.64e15 之间（日期能表示的范围）；{value} 超出范围。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Audit entry #{audit_id} does not list the rows it changed; it cannot be undone.</source>
        <translation>审计记录 #{audit_id} 没有列出它更改的行；无法撤销。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The search for “{query}” could not run: {error}</source>
        <translation>对“{query}”的搜索无法运行：{error}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The MCP server needs the mcp package, which is not installed. Install it with: {install}</source>
        <translation>MCP 服务器需要 mcp 软件包，但尚未安装。请用以下命令安装：{install}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not an address: {address} (expected HOST:PORT).</source>
        <translation>不是有效地址：{address}（应为 主机:端口）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown resource {uri}.</source>
        <translation>未知资源 {uri}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No resource {uri}.</source>
        <translation>没有资源 {uri}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No conversation {conversation}.</source>
        <translation>没有会话 {conversation}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No skill {name}.</source>
        <translation>没有技能 {name}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No prompt {name}.</source>
        <translation>没有提示词 {name}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The prompt needs the argument {argument}.</source>
        <translation>该提示词需要参数 {argument}。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{path}: the database file changed on disk ({change}) since the MCP server opened it; nothing was read or written. Start the server again to serve the file now at that path.</source>
        <translation>{path}：自 MCP 服务器打开以来，数据库文件在磁盘上已发生变化（{change}）；未读取或写入任何内容。请重新启动服务器，以提供该路径下现在的文件。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>The validity window is not valid: it ends ({valid_until}) before it starts ({valid_from}), or these are not times.</source>
        <translation>有效期无效：结束时间（{valid_until}）早于开始时间（{valid_from}），或它们不是时间。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>{fact} was changed after this edit ({values}). {step} would overwrite that change, so nothing was changed.</source>
        <translation>{fact} 在这次编辑之后又被更改（{values}）。{step}会覆盖那次更改，因此没有做任何更改。</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>{step} would overwrite a later change of the note {id} ({values}). Nothing was changed.</source>
        <translation>{step}会覆盖笔记 {id} 之后的更改（{values}）。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>{step} would delete the {row_kind} {name}, which changed since ({values}). Nothing was changed.</source>
        <translation>{step}会删除{row_kind} {name}，而它之后又被更改过（{values}）。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>The newest plan of session {session} cannot be read by the agent (malformed steps or review history); its project plan section is skipped.</source>
        <translation>会话 {session} 的最新计划无法被智能体读取（步骤或审阅历史格式错误）；已跳过其项目计划部分。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Schedule {schedule} has a malformed payload; plan injection skipped.</source>
        <translation>计划任务 {schedule} 的负载格式错误；已跳过计划注入。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} holds invalid JSON; the agent cannot read it (shown here as a string).</source>
        <translation>{fact} 存有无效的 JSON；智能体无法读取它（此处按字符串显示）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} holds null: the agent fails to build its prefix on it.</source>
        <translation>{fact} 的值为 null：智能体会因此无法构建其前缀。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unrecognised grade {grade}, read as draft</source>
        <translation>无法识别的等级 {grade}，按草稿处理</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{counts}: draft (a recorded failure rules out confirmation)</source>
        <translation>{counts}：草稿（已有失败记录，无法升为已确认）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: draft (reset to draft with its counters kept; the next success confirms it)</source>
        <translation>{counts}：草稿（已重置为草稿，计数保留；下一次成功即升为已确认）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{counts}: draft (not yet validated; confirmation needs 2 successes and no failure)</source>
        <translation>{counts}：草稿（尚未验证；升为已确认需要成功 2 次且没有失败）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: confirmed (the next success makes it stable)</source>
        <translation>{counts}：已确认（下一次成功即升为稳定）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: confirmed (stable needs 5 successes and failures under 10% of them)</source>
        <translation>{counts}：已确认（升为稳定需要成功 5 次，且失败少于成功次数的 10%）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: stable (the highest grade successes can reach)</source>
        <translation>{counts}：稳定（成功所能达到的最高等级）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: playbook, a lesson shown as a hint that use_skill does not run</source>
        <translation>{counts}：手册，作为提示展示的经验，use_skill 不会执行它</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: deprecated ({n} failures in a row)</source>
        <translation>{counts}：已弃用（连续失败 {n} 次）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{counts}: deprecated (failures above 30% of its successes)</source>
        <translation>{counts}：已弃用（失败超过成功次数的 30%）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{counts}: deprecated (set by hand, or by failures its counters no longer show)</source>
        <translation>{counts}：已弃用（手动设置，或由计数中已不再体现的失败导致）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/messages.py" line="-18"/>
        <source>a file</source>
        <translation>一个文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a folder</source>
        <translation>一个文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing: no file exists there</source>
        <translation>空：那里没有文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a loop of symbolic links (a link that leads back to itself), not a file</source>
        <translation>一个符号链接循环（指回自身的链接），而不是文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>nothing: a part of the path is a file, not a folder</source>
        <translation>空：路径中的某一部分是文件，而不是文件夹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a FIFO (named pipe)</source>
        <translation>一个 FIFO（命名管道）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a socket</source>
        <translation>一个套接字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a character device</source>
        <translation>一个字符设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a block device</source>
        <translation>一个块设备</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a symbolic link to {0}, which does not exist</source>
        <translation>一个指向 {0} 的符号链接，而目标不存在</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>a missing file</source>
        <translation>一个缺失的文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a place that cannot be reached ({0})</source>
        <translation>一个无法访问的位置（{0}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a special file</source>
        <translation>一个特殊文件</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>{0} is now {1} (expected {2})</source>
        <translation>{0} 现在是 {1}（应为 {2}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} is now {1}</source>
        <translation>{0} 现在是 {1}</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>positive</source>
        <translation>正向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>avoid</source>
        <translation>避免</translation>
    </message>
    <message>
        <location line="+9"/>
        <source> (now: {0})</source>
        <translation>（现在：{0}）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="-262"/>
        <source>The value given for {argument} is not valid.</source>
        <translation>为 {argument} 提供的值无效。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database has no {table}.{column} column.</source>
        <translation>此数据库没有 {table}.{column} 列。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database has no {table} table.</source>
        <translation>此数据库没有 {table} 表。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No message {id}.</source>
        <translation>没有消息 {id}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No action {id}.</source>
        <translation>没有工具调用记录 {id}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session {id} already exists.</source>
        <translation>会话 {id} 已存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No session {ids}.</source>
        <translation>没有会话 {ids}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{where}: the integer {value} is beyond ±2^53 ({limit}); JSON readers (JavaScript) would round it to a different number. Store it as text instead.</source>
        <translation>{where}：整数 {value} 超出 ±2^53（{limit}）；JSON 读取方（JavaScript）会把它舍入成另一个数。请改存为文本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{where}: {value} cannot be stored in JSON (it would become null). Use a finite number, null or text.</source>
        <translation>{where}：{value} 无法存入 JSON（会变成 null）。请使用有限数、null 或文本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{where}: a value of type {type} cannot be stored as JSON.</source>
        <translation>{where}：{type} 类型的值无法存为 JSON。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: the value contains itself and cannot be stored as JSON.</source>
        <translation>{where}：该值包含自身，无法存为 JSON。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{where}: object keys must be text, not {key}</source>
        <translation>{where}：对象的键必须是文本，而不是 {key}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The value is nested too deeply to be stored as JSON.</source>
        <translation>该值嵌套过深，无法存为 JSON。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The value cannot be stored as JSON: {error}</source>
        <translation>该值无法存为 JSON：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no fact with id {id}.</source>
        <translation>没有 id 为 {id} 的事实。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The self namespace is written only by the agent&apos;s self-reflection; self.{key} cannot be changed here.</source>
        <translation>self 命名空间只由智能体的自我反思写入；这里不能更改 self.{key}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The confidence must be a number between 0 and 1.</source>
        <translation>置信度必须是 0 到 1 之间的数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>τ must be a finite number of days (negative pins, empty clears).</source>
        <translation>τ 必须是有限的天数（负数表示固定，留空表示清除）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>τ must be greater than 0 days (a τ of 0 makes the score undefined).</source>
        <translation>τ 必须大于 0 天（τ 为 0 时分数无定义）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kind of a fact is state or event.</source>
        <translation>事实的类型只能是状态或事件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An edit needs at least one changed field.</source>
        <translation>编辑至少需要改动一个字段。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The namespace must not be empty.</source>
        <translation>命名空间不能为空。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key must not be empty.</source>
        <translation>键不能为空。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The {label} must be text.</source>
        <translation>{label} 必须是文本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The {label} contains a lone surrogate ({char} at position {position}), half of a character that cannot be stored; remove it or complete the character.</source>
        <translation>{label} 含有孤立的代理码元（位置 {position} 的 {char}），这是无法存储的半个字符；请删除它或补全该字符。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} must be a time in epoch milliseconds (an integer), not {value}.</source>
        <translation>{field} 必须是以纪元毫秒表示的时间（整数），而不是 {value}。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{fact} changed since it was shown ({field} is now {now}, was {was}). Nothing was changed; look at it again.</source>
        <translation>{fact} 在显示之后已被更改（{field} 现在是 {now}，原为 {was}）。没有做任何更改；请重新查看。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} was changed meanwhile: its current version is {current}.</source>
        <translation>{fact} 在此期间已被更改：其当前版本是 {current}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} has a newer version written meanwhile{newer}. Your change was computed against the older version and was not applied.</source>
        <translation>{fact} 在此期间写入了更新的版本{newer}。您的更改基于旧版本计算，未被应用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} has a newer version written meanwhile{newer}. Your edit was made against an older version and was not applied; the newer version is kept. Look at it and edit again if needed.</source>
        <translation>{fact} 在此期间写入了更新的版本{newer}。您的编辑基于旧版本，未被应用；保留了较新的版本。请查看后按需重新编辑。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} has a newer version written meanwhile{newer}. The fact was not added; look at the current version first.</source>
        <translation>{fact} 在此期间写入了更新的版本{newer}。未添加该事实；请先查看当前版本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} has a newer version written meanwhile{newer}. {step} would drop or overwrite that newer version, so nothing was changed.</source>
        <translation>{fact} 在此期间写入了更新的版本{newer}。{step}会丢弃或覆盖这个较新的版本，因此没有做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} has a newer version written meanwhile{newer}. {step} would put an older value on top of it, so nothing was changed.</source>
        <translation>{fact} 在此期间写入了更新的版本{newer}。{step}会把较旧的值放在它之上，因此没有做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{fact} no longer has the version you saw. The fact was not added; look at the current version first.</source>
        <translation>{fact} 已不再是您看到的版本。未添加该事实；请先查看当前版本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact}: the version {id} exists already; nothing was changed.</source>
        <translation>{fact}：版本 {id} 已存在；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{fact} (version {id}) no longer exists; nothing was changed.</source>
        <translation>{fact}（版本 {id}）已不存在；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{fact} is already pinned; nothing to change.</source>
        <translation>{fact} 已经固定；无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{fact} already has this τ; nothing to change.</source>
        <translation>{fact} 已经是这个 τ；无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{fact} is not forgotten; nothing to change.</source>
        <translation>{fact} 并未被遗忘；无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{fact} is not pinned; nothing to change.</source>
        <translation>{fact} 并未固定；无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{fact} is already forgotten; nothing to change.</source>
        <translation>{fact} 已经被遗忘；无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} and {other} have the same key; {namespace} can hold only one version of {key}. Move them separately.</source>
        <translation>{fact} 与 {other} 的键相同；{namespace} 中只能保存 {key} 的一个版本。请分开移动它们。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to change ({skipped}).</source>
        <translation>无需更改（{skipped}）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} is written by the kernel only; it is not merged.</source>
        <translation>{fact} 只由内核写入，不参与合并。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{fact} (version {id}) is no longer live (superseded or forgotten meanwhile). Nothing was changed; look at the duplicates again.</source>
        <translation>{fact}（版本 {id}）已不再有效（其间被取代或遗忘）。未做任何更改；请重新查看这些重复项。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A merge needs two facts or more, the one kept among them.</source>
        <translation>合并需要两条或更多事实，且保留的那条在其中。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The chain is not broken (any more); nothing to repair.</source>
        <translation>这条链（已经）没有断开，无需修复。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every fact already has this τ; nothing to change.</source>
        <translation>每条事实都已是这个 τ，无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A merge needs two notes or more, the one kept among them.</source>
        <translation>合并需要两条或更多笔记，且保留的那条在其中。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The note {id} ({preview}) to keep was forgotten meanwhile; nothing was changed.</source>
        <translation>要保留的笔记 {id}（{preview}）其间已被遗忘；未做任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every note is forgotten already; nothing to change.</source>
        <translation>每条笔记都已被遗忘，无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The task {name} is not paused; nothing to change.</source>
        <translation>任务 {name} 未被暂停，无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{step} would overwrite a later change: the scheduler paused or resumed the task {name} since. Nothing was changed.</source>
        <translation>{step}会覆盖之后的更改：调度器此后暂停或恢复了任务 {name}。未做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The database has no index {index}; nothing to rebuild.</source>
        <translation>数据库中没有索引 {index}，无需重建。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown full-text index {index}.</source>
        <translation>未知的全文索引 {index}。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>There is no audit entry #{audit_id}.</source>
        <translation>没有审计记录 #{audit_id}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The edit that audit entry #{audit_id} refers to is missing.</source>
        <translation>审计记录 #{audit_id} 所指的编辑已不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit #{audit_id} ({action}) is already undone.</source>
        <translation>编辑 #{audit_id}（{action}）已经撤销。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit #{audit_id} ({action}) is not undone, so there is nothing to redo.</source>
        <translation>编辑 #{audit_id}（{action}）并未撤销，因此没有可重做的内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Audit entry #{audit_id} does not hold what its edit changed; it cannot be undone.</source>
        <translation>审计记录 #{audit_id} 没有保存其编辑所改动的内容；无法撤销。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edits of type {action} cannot be undone or redone here.</source>
        <translation>类型为 {action} 的编辑无法在这里撤销或重做。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No note {id}.</source>
        <translation>没有笔记 {id}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No note {id}: it may have been deleted meanwhile.</source>
        <translation>没有笔记 {id}：它可能已在此期间被删除。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Importance must be a number between 0 and 1.</source>
        <translation>重要性必须是 0 到 1 之间的数。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The note&apos;s text must be a string.</source>
        <translation>笔记内容必须是字符串。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A note cannot be empty.</source>
        <translation>笔记不能为空。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to change: give a new text or a new importance.</source>
        <translation>无需更改：请给出新的内容或新的重要性。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A note id must be a non-empty string.</source>
        <translation>笔记 id 必须是非空字符串。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A note with id {id} already exists.</source>
        <translation>id 为 {id} 的笔记已存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The note {id} ({preview}) changed since it was shown ({field} is now {now}). Nothing was changed; look at it again.</source>
        <translation>笔记 {id}（{preview}）在显示之后已被更改（{field} 现在是 {now}）。没有做任何更改；请重新查看。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The note {id} ({preview}) already says that; nothing to change.</source>
        <translation>笔记 {id}（{preview}）已经是这个内容；无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The note {id} ({preview}) is already forgotten; nothing to change.</source>
        <translation>笔记 {id}（{preview}）已经被遗忘；无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The note {id} ({preview}) is not forgotten; nothing to change.</source>
        <translation>笔记 {id}（{preview}）并未被遗忘；无需更改。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{step}: the note {id} ({preview}) no longer exists; nothing was changed.</source>
        <translation>{step}：笔记 {id}（{preview}）已不存在；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{step}: a note with id {id} exists again; nothing was changed.</source>
        <translation>{step}：id 为 {id} 的笔记又出现了；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>An event needs a time zone (an IANA name such as Europe/Berlin).</source>
        <translation>事件需要时区（IANA 名称，例如 Europe/Berlin）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>An event cannot end before it starts.</source>
        <translation>事件的结束时间不能早于开始时间。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No {row_kind} {id}: it may have been deleted meanwhile.</source>
        <translation>没有{row_kind} {id}：它可能已在此期间被删除。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The {row_kind} {name} changed since it was shown ({field} is now {now}). Nothing was changed; look at it again.</source>
        <translation>{row_kind} {name} 在显示之后已被更改（{field} 现在是 {now}）。没有做任何更改；请重新查看。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The task {name} is already enabled; nothing to change.</source>
        <translation>任务 {name} 已经启用；无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The task {name} is already disabled; nothing to change.</source>
        <translation>任务 {name} 已经停用；无需更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{step}: the {row_kind} {name} exists again; nothing was changed.</source>
        <translation>{step}：{row_kind} {name} 又出现了；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{step} would make the task {name} enabled beside the enabled task of the same name ({other_id}) made since: both would fire. Nothing was changed; disable or delete that task first.</source>
        <translation>{step}会让任务 {name} 与之后新建的同名已启用任务（{other_id}）同时处于启用状态：两者都会触发。没有做任何更改；请先停用或删除那个任务。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{step}: the table {table} no longer has the columns {columns}.</source>
        <translation>{step}：表 {table} 已不再有列 {columns}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{step}: the {row_kind} {name} no longer exists; nothing was changed.</source>
        <translation>{step}：{row_kind} {name} 已不存在；没有做任何更改。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{step} would overwrite a later change: the {row_kind} {name} was enabled or disabled since. Nothing was changed.</source>
        <translation>{step}会覆盖之后的更改：{row_kind} {name} 之后又被启用或停用过。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unknown task action type {action_type}.</source>
        <translation>未知的任务动作类型 {action_type}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The repeat rule {cron_expr} cannot be read.</source>
        <translation>无法解析重复规则 {cron_expr}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The skill {name} no longer exists: it was deleted or renamed meanwhile.</source>
        <translation>技能 {name} 已不存在：它在此期间被删除或重命名。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The skill {name} changed since it was shown (the agent or another edit wrote to it). Nothing was changed; look at the current version and try again.</source>
        <translation>技能 {name} 在显示之后已被更改（智能体或另一次编辑写入过）。没有做任何更改；请查看当前版本后重试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no skill {name}.</source>
        <translation>没有技能 {name}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no skill with id {id}.</source>
        <translation>没有 ID 为 {id} 的技能。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every skill is {grade} already; nothing to change.</source>
        <translation>每个技能都已是{grade}，无需更改。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A verification has a kind (one of {kinds}) and a check.</source>
        <translation>验证需要一个类型（{kinds} 之一）和一项检查。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A verification needs a check text.</source>
        <translation>验证需要检查内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A tool policy is a list of tool names.</source>
        <translation>工具策略是工具名称的列表。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A skill needs a description.</source>
        <translation>技能需要描述。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to change.</source>
        <translation>没有需要变更的内容。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown grade {grade} (one of {grades}).</source>
        <translation>未知的等级 {grade}（可选：{grades}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A skill&apos;s kind is positive or avoid.</source>
        <translation>技能的类型只能是正向或规避。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The edit of the skill {name} cannot be {step}: the skill no longer exists.</source>
        <translation>技能 {name} 的编辑无法{step}：该技能已不存在。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The edit of the skill {name} cannot be {step}: {fields} changed since (the agent or another edit wrote to it). Nothing was changed.</source>
        <translation>技能 {name} 的编辑无法{step}：{fields} 之后已被更改（智能体或另一次编辑写入过）。没有做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The skill {name} cannot be restored: a skill with that name or id exists again.</source>
        <translation>无法恢复技能 {name}：已经又有同名或同 id 的技能。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The skill {name} cannot be deleted again: it no longer exists.</source>
        <translation>无法再次删除技能 {name}：它已不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The skill {name} cannot be deleted again: {fields} changed since it was restored.</source>
        <translation>无法再次删除技能 {name}：恢复后 {fields} 又被更改过。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} is not a recipe (it has no verification), so it has no versions to revise; edit its fields instead.</source>
        <translation>{name} 不是流程（没有验证），因此没有可修订的版本；请直接编辑其字段。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The recipe is unchanged: nothing to revise.</source>
        <translation>流程没有变化：无需修订。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} cannot be revised.</source>
        <translation>{name} 无法修订。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is not a recipe (it has no verification), so it cannot be reverted.</source>
        <translation>{name} 不是流程（没有验证），因此无法回退。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The skill {name} has no revision {revision}.</source>
        <translation>技能 {name} 没有第 {revision} 次修订。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} cannot be reverted.</source>
        <translation>{name} 无法回退。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is a recipe: change its action template by revising the recipe, so the old version is kept.</source>
        <translation>{name} 是流程：请通过修订流程来更改其动作模板，这样旧版本会被保留。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} is already {grade}.</source>
        <translation>{name} 已经是{grade}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name} is already {kind_of_skill}.</source>
        <translation>{name} 已经是{kind_of_skill}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A skill named {name} already exists.</source>
        <translation>名为 {name} 的技能已存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The export was cancelled; no file was written.</source>
        <translation>导出已取消；未写入任何文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown export format {format} (one of {formats}).</source>
        <translation>未知的导出格式 {format}（可选：{formats}）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The folder {path} does not exist.</source>
        <translation>文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The {layer} layer has no time column.</source>
        <translation>{layer} 层没有时间列。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The {layer} layer has no column(s) {columns}.</source>
        <translation>{layer} 层没有列 {columns}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to export: the view has no columns.</source>
        <translation>没有可导出的内容：视图中没有列。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The {layer} layer has no column {column} to filter on.</source>
        <translation>{layer} 层没有可用于筛选的列 {column}。</translation>
    </message>
    <message>
        <location line="-231"/>
        <source>{tool} changes memory, and this MCP server was started read-only: nothing was written.</source>
        <translation>{tool} 会更改记忆，而此 MCP 服务器以只读方式启动：未写入任何内容。</translation>
    </message>
    <message>
        <location line="-126"/>
        <source> No backup that passes the quick integrity check was found in backups/.</source>
        <translation>在 backups/ 中没有找到通过快速完整性检查的备份。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>the database is damaged (quick integrity check: {quick_check})</source>
        <translation>数据库已损坏（快速完整性检查：{quick_check}）</translation>
    </message>
    <message>
        <location line="+107"/>
        <source>Invalid arguments for {tool}: {detail}</source>
        <translation>{tool} 的参数无效：{detail}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The tool {tool} failed ({type}).</source>
        <translation>工具 {tool} 执行失败（{type}）。</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Cannot {step}: the row {id} of {table} {problem}; nothing was changed.</source>
        <translation>无法{step}：{table} 中的行 {id} {problem}；没有做任何更改。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/backup_texts.py" line="-4"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="+98"/>
        <source>The facts changed since the confirmation was shown (the agent wrote meanwhile); nothing was changed. Look at the list again:
{changes}</source>
        <translation>显示确认之后这些事实已有变化（其间智能体写入了内容）；没有做任何更改。请重新查看列表：
{changes}</translation>
    </message>
    <message>
        <location line="+100"/>
        <source>A reason is required to {action}.</source>
        <translation>{action}需要填写理由。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/messages.py" line="-117"/>
        <source>exists again</source>
        <translation>又重新存在了</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>was changed since ({0})</source>
        <translation>此后已被修改（{0}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>has columns the table no longer has: {0}</source>
        <translation>含有该表已不存在的列：{0}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>revise a recipe</source>
        <translation>修订配方</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>set a grade by hand</source>
        <translation>手动设置等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>make this change</source>
        <translation>进行此更改</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/message_templates.py" line="-75"/>
        <location filename="../../philont_desktop/messages.py" line="-80"/>
        <source>no longer exists</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by a newer version</source>
        <translation>已被更新的版本取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already forgotten</source>
        <translation>已被遗忘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned: not a forget candidate</source>
        <translation>已固定：不是遗忘候选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not a forget candidate (score {score} at {at})</source>
        <translation>不是遗忘候选（{at} 时得分 {score}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not pinned</source>
        <translation>未固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already in this namespace</source>
        <translation>已在此命名空间中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>self facts are written by the kernel only</source>
        <translation>self 事实只由内核写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>would now be changed too</source>
        <translation>现在也会被更改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>now has a version stored {at}</source>
        <translation>现在有一个存于 {at} 的版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changed</source>
        <translation>已变化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>… and {n} more</source>
        <translation>…… 以及另外 {n} 项</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/audit/words.py" line="+41"/>
        <source>namespace default</source>
        <translation>命名空间默认值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pinned (never decays)</source>
        <translation>已固定（永不衰减）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/widgets/readable.py" line="+59"/>
        <source>Raw</source>
        <translation>原文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the stored text as it is</source>
        <translation>显示存储的原始文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the text as it is stored (JSON with its escapes) instead of its readable form</source>
        <translation>显示存储时的原始文本（带转义的 JSON），而不是易读形式</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>[… %1 more characters: double-click to see the whole text]</source>
        <translation>[… 还有 %1 个字符：双击查看全文]</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>[long lines are broken for display: double-click to see the text as it is]</source>
        <translation>[长行已为显示而折断：双击查看原文]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>[long values are cut here: Raw shows the text as stored]</source>
        <translation>[过长的值在此处被截断：“原文”显示存储的文本]</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/doctor/texts.py" line="+34"/>
        <source>{namespace}.{key} has {count} live values at once; the agent reads only one.</source>
        <translation>{namespace}.{key} 同时有 {count} 个有效值；智能体只读取其中一个。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fact {id} ({namespace}.{key}) is superseded by {missing}, which does not exist: the chain is broken.</source>
        <translation>事实 {id}（{namespace}.{key}）被 {missing} 取代，但后者不存在：链已断开。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The supersede chain of {namespace}.{key} loops through {count} facts.</source>
        <translation>{namespace}.{key} 的取代链在 {count} 条事实之间循环。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The same value is stored under {count} keys of {namespace}: {keys}.</source>
        <translation>同一个值存储在 {namespace} 的 {count} 个键下：{keys}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} facts are past their valid_until and still live ({shown} of them shown in the prefix).</source>
        <translation>{count} 条事实已过 valid_until 但仍有效（其中 {shown} 条显示在前缀中）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} facts shown in the prefix score below the forget threshold {threshold}.</source>
        <translation>前缀中显示的 {count} 条事实得分低于遗忘阈值 {threshold}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} live {namespace} facts are left out of the prefix by its limit of {limit} facts.</source>
        <translation>{count} 条有效的 {namespace} 事实因前缀的 {limit} 条上限而未进入前缀。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The prefix is {over} characters over its cap of {cap}; {count} facts are cut off by it.</source>
        <translation>前缀超出其 {cap} 字符上限 {over} 个字符；{count} 条事实因此被截掉。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} live facts have not been read for {days} days or more.</source>
        <translation>{count} 条有效事实已有 {days} 天或更久未被读取。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fact {namespace}.{key} has a confidence of {value}, not a number in 0-1.</source>
        <translation>事实 {namespace}.{key} 的置信度为 {value}，不是 0–1 之间的数。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fact {namespace}.{key} holds invalid JSON; the agent cannot read its value.</source>
        <translation>事实 {namespace}.{key} 含有无效 JSON；智能体无法读取其值。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skill {name} is {maturity}, but its {actions} linked actions back only {backed}.</source>
        <translation>技能 {name} 为 {maturity}，但其 {actions} 个关联操作只支持 {backed}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skill {name} was offered {offered} times and never matched.</source>
        <translation>技能 {name} 被提供了 {offered} 次，从未匹配。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skill {name} has used {count} of {limit} repair attempts.</source>
        <translation>技能 {name} 已用掉 {limit} 次修复尝试中的 {count} 次。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skills {names} have near-identical recipes ({similarity} alike).</source>
        <translation>技能 {names} 的配方几乎相同（相似度 {similarity}）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{count} draft skills have not been used for {days} days or more.</source>
        <translation>{count} 个草稿技能已有 {days} 天或更久未被使用。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skill {name} holds invalid JSON in {fields}.</source>
        <translation>技能 {name} 的 {fields} 含有无效 JSON。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} notes hold the same text.</source>
        <translation>{count} 条笔记内容相同。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} forgotten notes are still found by the agent&apos;s note search.</source>
        <translation>{count} 条已遗忘的笔记仍会被智能体的笔记搜索找到。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{index} lacks {count} rows of {table}: search does not find them.</source>
        <translation>{index} 缺少 {table} 的 {count} 行：搜索找不到它们。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{index} holds {count} rows that {table} no longer has.</source>
        <translation>{index} 含有 {count} 行 {table} 中已不存在的行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The full-text index {index} of {table} does not exist.</source>
        <translation>{table} 的全文索引 {index} 不存在。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Task {name} has failed {failures} times in a row.</source>
        <translation>任务 {name} 已连续失败 {failures} 次。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Task {name} is paused until {until}.</source>
        <translation>任务 {name} 暂停至 {until}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One-shot task {name} was due {overdue_hours} hours ago and never ran.</source>
        <translation>一次性任务 {name} 已过期 {overdue_hours} 小时，从未运行。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{free_mb} MB of the file ({ratio}) is free space a VACUUM would reclaim.</source>
        <translation>文件中有 {free_mb} MB（{ratio}）是 VACUUM 可以回收的空闲空间。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The -wal file holds {wal_mb} MB (threshold {limit_mb} MB).</source>
        <translation>-wal 文件大小为 {wal_mb} MB（阈值 {limit_mb} MB）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{count} backups take {total_mb} MB; the newest good one is {age_days} days old.</source>
        <translation>{count} 个备份共占 {total_mb} MB；最新的完好备份已有 {age_days} 天。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No backup that passes quick_check was found.</source>
        <translation>没有找到通过 quick_check 的备份。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Keep the fact you pick; the others are superseded by it and stay in the history.</source>
        <translation>保留你选择的事实；其余的被它取代，并保留在历史中。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the note you pick; the others are forgotten.</source>
        <translation>保留你选择的笔记；其余的被遗忘。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the skill you pick; the others are deprecated, with the reason in the audit trail.</source>
        <translation>保留你选择的技能；其余的被弃用，原因记入审计记录。</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>The file holds {size_mb} MB; {month_messages} messages came in during {month}.</source>
        <translation>文件大小为 {size_mb} MB；{month} 期间新增了 {month_messages} 条消息。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The memory prefix takes {chars} of its {cap} characters ({tokens} tokens).</source>
        <translation>记忆前缀占用其 {cap} 个字符上限中的 {chars} 个（{tokens} 个令牌）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{average} messages a day over the last {days} days (busiest day: {max}).</source>
        <translation>最近 {days} 天平均每天 {average} 条消息（最多的一天：{max}）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The check {check} could not run: {error}</source>
        <translation>检查 {check} 无法运行：{error}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Unknown layer {layer}; the layers are {layers}.</source>
        <translation>未知的层 {layer}；可用的层为 {layers}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown health option {option}.</source>
        <translation>未知的健康检查选项 {option}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The health option {option} must be a number, not {value}.</source>
        <translation>健康检查选项 {option} 必须是数字，而不是 {value}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown fix {fix}.</source>
        <translation>未知的修复 {fix}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This fix works on facts and notes, not on {table}.</source>
        <translation>此修复适用于事实和笔记，不适用于 {table}。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pick the one to keep.</source>
        <translation>请选择要保留的一项。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give a decay time in days above 0.</source>
        <translation>请给出大于 0 的衰减时间（天）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This fix acts on one task.</source>
        <translation>此修复只作用于一个任务。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Merge the duplicates</source>
        <translation>合并重复项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget them</source>
        <translation>遗忘它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pin them</source>
        <translation>固定它们</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shorten their decay time</source>
        <translation>缩短其衰减时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repair the chain</source>
        <translation>修复链</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Demote the skill</source>
        <translation>降低技能等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pause the task</source>
        <translation>暂停任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enable the task</source>
        <translation>启用任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rebuild the index</source>
        <translation>重建索引</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Soft-forget the rows: the agent no longer reads them; the history keeps them.</source>
        <translation>软遗忘这些行：智能体不再读取它们；历史中仍保留。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin the facts: they never decay and are never forget candidates.</source>
        <translation>固定这些事实：它们永不衰减，也永远不会成为遗忘候选。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the facts a shorter decay time (τ, in days) of their own.</source>
        <translation>为这些事实设置各自更短的衰减时间（τ，单位为天）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Link each broken version to the current head of its key; a key without any head gets its newest version as the head again.</source>
        <translation>把每个断开的版本链接到其键的当前最新版本；没有最新版本的键，以其最新的版本重新作为最新版本。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Set the skill&apos;s grade lower, with the reason kept in the audit trail.</source>
        <translation>降低技能的等级，原因记入审计记录。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Disable the task, so the scheduler stops firing it.</source>
        <translation>停用该任务，使调度器不再触发它。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enable the task again (a task paused after failures runs at its next time).</source>
        <translation>重新启用该任务（因失败而暂停的任务会在下一次时间运行）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rebuild the full-text index from its table. Refused while the agent writes; no row changes.</source>
        <translation>根据表重建全文索引。智能体写入期间会被拒绝；不会更改任何行。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search indexes</source>
        <translation>搜索索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File and growth</source>
        <translation>文件与增长</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>note</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/privacy/model.py" line="+55"/>
        <location filename="../../philont_desktop/health/privacy/results.py" line="+21"/>
        <source>this database</source>
        <translation>本数据库</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>This database</source>
        <translation>本数据库</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Place</source>
        <translation>位置</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>The database this window shows</source>
        <translation>本窗口显示的数据库</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>All layers</source>
        <translation>所有层</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Show these findings</source>
        <translation>显示这些发现</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/privacy/results.py" line="+9"/>
        <source>No finding in %n file(s).</source>
        <translation>%n 个文件中没有发现。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n finding(s)</source>
        <translation>%n 个发现</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+56"/>
        <location line="+2"/>
        <source> in %n file(s).</source>
        <translation>，位于 %n 个文件中。</translation>
    </message>
    <message>
        <location line="-54"/>
        <source>%n on your allow-list, not shown.</source>
        <translation>%n 个在你的允许列表中，未显示。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%n value(s) or table(s) could not be read.</source>
        <translation>%n 个值或表无法读取。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{0} could not be read: {1}</source>
        <translation>{0} 无法读取：{1}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its write-ahead log (-wal), emptied</source>
        <translation>其预写日志（-wal），将被清空</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a file this app derives from the text, removed (made again when needed)</source>
        <translation>本应用由文本派生的文件，将被删除（需要时会重新生成）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a backup of the agent&apos;s</source>
        <translation>智能体的备份</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>a backup of this app&apos;s</source>
        <translation>本应用的备份</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+27"/>
        <source>, %n row(s)</source>
        <translation>，%n 行</translation>
    </message>
    <message>
        <location line="-25"/>
        <location line="+27"/>
        <source>, %n audit row(s)</source>
        <translation>，%n 条审计记录</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>copies outside the memory folder (exports, copies a person made, other machines)</source>
        <translation>记忆文件夹之外的副本（导出文件、他人复制的文件、其他机器）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>file system or backup-tool snapshots of the memory folder</source>
        <translation>文件系统或备份工具对记忆文件夹所做的快照</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>disk blocks a file system keeps after a file is rewritten</source>
        <translation>文件重写后文件系统仍保留的磁盘块</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A purge cannot reach:</source>
        <translation>清除无法触及：</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Purged: %n row(s) deleted</source>
        <translation>已清除：删除 %n 行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Purged: %n row(s) redacted</source>
        <translation>已清除：涂改 %n 行</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>, -wal emptied</source>
        <translation>，-wal 已清空</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Left as it was: {0}: {1}</source>
        <translation>保持原样：{0}：{1}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Removed (made again when needed):</source>
        <translation>已删除（需要时会重新生成）：</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/privacy/texts.py" line="+116"/>
        <source>the row or its text is no longer there</source>
        <translation>该行或其文本已不存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the span is outside the stored text</source>
        <translation>该片段超出了存储的文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its table cannot be read</source>
        <translation>其所在的表无法读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is no longer as the scan found it</source>
        <translation>它已不再是扫描时的样子</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>its -wal file was written {0} s ago</source>
        <translation>其 -wal 文件在 {0} 秒前被写入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>another program holds a lock on it</source>
        <translation>另一个程序持有它的锁</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was written while the purge watched it</source>
        <translation>清除观察期间它被写入了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is in use</source>
        <translation>它正在被使用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The database {path} seems to be in use (probably by the agent): {why}. Stop the agent, wait a few seconds and try again. Nothing was purged.</source>
        <translation>数据库 {path} 似乎正在被使用（可能是智能体）：{why}。请停止智能体，等几秒后重试。未清除任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The scan was cancelled.</source>
        <translation>扫描已取消。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no layer {layer}; the layers are {layers}.</source>
        <translation>没有名为 {layer} 的层；可用的层有 {layers}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no purge mode {mode}: redact or delete.</source>
        <translation>没有清除方式 {mode}：只能是涂改或删除。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>There is no database at {path}: nothing was purged.</source>
        <translation>{path} 处没有数据库：未清除任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The purge was planned for {planned}, not {path}: nothing was purged.</source>
        <translation>清除计划是针对 {planned} 而非 {path} 制定的：未清除任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The database {path} is open in this program: close its connections first (the purge locks the file for itself). Nothing was purged.</source>
        <translation>数据库 {path} 正在本程序中打开：请先关闭它的连接（清除需要独占锁定该文件）。未清除任何内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The backup {path} cannot be read ({error}): it is left as it is.</source>
        <translation>备份 {path} 无法读取（{error}）：保持原样。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{table} #{row} ({column}) changed after the purge was planned: {path} was left as it was. Scan again and purge what is found then.</source>
        <translation>{table} #{row}（{column}）在制定清除计划后发生了变化：{path} 保持原样。请重新扫描，再清除届时发现的内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The purge failed: {error}</source>
        <translation>清除失败：{error}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{table} #{row} ({column}) is left out: {why}.</source>
        <translation>{table} #{row}（{column}）已略过：{why}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{path} is neither the database nor one of its backups: its finding is left out.</source>
        <translation>{path} 既不是该数据库也不是它的备份：其中的发现已略过。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/privacy/window_purge.py" line="+53"/>
        <source>Purging {0}…</source>
        <translation>正在清除 {0}…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Purging</source>
        <translation>正在清除</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../philont_desktop/about_dialog.py" line="+44"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Schema understood</source>
        <translation>支持的架构版本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+13"/>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>none open</source>
        <translation>未打开</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>(newer than this version understands: read-only)</source>
        <translation>（比本版本支持的更新：只读）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Schema of this database</source>
        <translation>此数据库的架构版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal mode</source>
        <translation>日志模式</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quick integrity check</source>
        <translation>快速完整性检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Access</source>
        <translation>访问方式</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>editing mode: changes are written and audited</source>
        <translation>编辑模式：更改会被写入并记入审计</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read-only: {0}</source>
        <translation>只读：{0}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>read-only until editing mode is turned on</source>
        <translation>只读，直到开启编辑模式</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>An inspector and curation tool for the memory of a Philont agent.</source>
        <translation>用于查看和整理 Philont 智能体记忆的工具。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>About {0}</source>
        <translation>关于 {0}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the versions as text (for a bug report)</source>
        <translation>以文本形式复制版本信息（用于报告问题）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Tables in this database</source>
        <translation>此数据库中的表</translation>
    </message>
</context>
<context>
    <name>Accessible</name>
    <message>
        <location filename="../../philont_desktop/widgets/accessible.py" line="+39"/>
        <source>Memory views</source>
        <translation>记忆视图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The layers of the memory, a tab each; Ctrl+Tab goes to the next</source>
        <translation>记忆的各层，每层一个标签页；Ctrl+Tab 转到下一个</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search messages</source>
        <translation>搜索消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full-text search over every message; at least 3 characters</source>
        <translation>在所有消息中全文搜索；至少 3 个字符</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From date</source>
        <translation>起始日期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First day of the date range</source>
        <translation>日期范围的第一天</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>To date</source>
        <translation>结束日期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last day of the date range</source>
        <translation>日期范围的最后一天</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sessions and conversations, newest first</source>
        <translation>会话与对话，最新的在前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Messages that match the search, with a snippet each</source>
        <translation>与搜索匹配的消息，各附一段摘录</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The messages of the selected session, oldest first</source>
        <translation>所选会话的消息，最早的在前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New messages</source>
        <translation>新消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scrolls to the messages that arrived above</source>
        <translation>滚动到上方新到的消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Messages per day</source>
        <translation>每天的消息数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of messages per day; drag to choose a date range</source>
        <translation>每天消息数的图表；拖动以选择日期范围</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Action log</source>
        <translation>操作日志</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every tool call with its tool, time, status and duration</source>
        <translation>每次工具调用及其工具、时间、状态和耗时</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The parameters of the selected tool call</source>
        <translation>所选工具调用的参数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Result</source>
        <translation>返回结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The result of the selected tool call</source>
        <translation>所选工具调用的返回结果</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Failure rate per tool</source>
        <translation>各工具失败率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of the share of failed calls per tool</source>
        <translation>各工具失败调用比例的图表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Linked skill</source>
        <translation>关联技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show only the calls linked to this skill</source>
        <translation>只显示与此技能关联的调用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search notes</source>
        <translation>搜索笔记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every note with its importance and dates</source>
        <translation>每条笔记及其重要性和日期</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note text</source>
        <translation>笔记内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From 0 to 1</source>
        <translation>从 0 到 1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Namespaces</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The namespaces with their decay constant τ and fact counts</source>
        <translation>各命名空间及其衰减常数 τ 和事实数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter facts</source>
        <translation>筛选事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shows the facts whose key, value or namespace contains this text</source>
        <translation>显示键、值或命名空间包含此文本的事实</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter column</source>
        <translation>筛选列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The column the column filter looks in</source>
        <translation>列筛选所查找的列</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Column filter</source>
        <translation>列筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shows the facts whose chosen column contains this text</source>
        <translation>显示所选列包含此文本的事实</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every fact with its score now, status and when it falls below the threshold</source>
        <translation>每条事实及其当前分数、状态和何时低于阈值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>View time</source>
        <translation>查看时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Moves “now” into the future to see what will be forgotten when</source>
        <translation>把“现在”移到未来，查看什么会在何时被遗忘</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>View time in days</source>
        <translation>查看时间（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Days from today</source>
        <translation>距今天的天数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fact details</source>
        <translation>事实详情</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decay curves</source>
        <translation>衰减曲线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of the score of the selected facts over time</source>
        <translation>所选事实分数随时间变化的图表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Curve legend</source>
        <translation>曲线图例</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Overview of all facts</source>
        <translation>全部事实概览</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of every fact&apos;s score now</source>
        <translation>每条事实当前分数的图表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forget pool</source>
        <translation>遗忘池</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The facts that will fall below the threshold, soonest first</source>
        <translation>将低于阈值的事实，最早的在前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fact history</source>
        <translation>事实历史</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The supersede chain of the selected fact</source>
        <translation>所选事实的取代链</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What-if decay constant τ</source>
        <translation>假设的衰减常数 τ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What-if confidence</source>
        <translation>假设的置信度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter skills</source>
        <translation>筛选技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Playbook skills</source>
        <translation>手册技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draft skills</source>
        <translation>草稿技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confirmed skills</source>
        <translation>已确认技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stable skills</source>
        <translation>稳定技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deprecated skills</source>
        <translation>已弃用技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skill details</source>
        <translation>技能详情</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why this grade</source>
        <translation>为何是此等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why the skill has its grade and what would move it</source>
        <translation>技能为何是此等级，以及什么会改变它</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skill fields</source>
        <translation>技能字段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ladder history</source>
        <translation>等级历史</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The grade moves replayed from the action log</source>
        <translation>从操作日志重放的等级变化</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revisions</source>
        <translation>修订</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Older revision</source>
        <translation>较早的修订</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Newer revision</source>
        <translation>较新的修订</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revision differences</source>
        <translation>修订差异</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The two revisions side by side, word by word</source>
        <translation>两个修订并排逐词对比</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The message the agent would receive</source>
        <translation>智能体将收到的消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Home folder</source>
        <translation>主目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host system</source>
        <translation>主机系统</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recent messages budget</source>
        <translation>近期消息预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source>Characters</source>
        <translation>字符</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Recall budget</source>
        <translation>召回预算</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Recent messages limit</source>
        <translation>近期消息上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+4"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Recall limit</source>
        <translation>召回上限</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Budgets and left out</source>
        <translation>预算与被省略的内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Left out</source>
        <translation>被省略的内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What did not fit in the context, and why</source>
        <translation>未能放入上下文的内容及原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context output</source>
        <translation>上下文输出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context preview</source>
        <translation>上下文预览</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exactly what the agent would be given, section by section</source>
        <translation>智能体将得到的确切内容，按部分列出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context comparison</source>
        <translation>上下文对比</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Days ahead</source>
        <translation>向前天数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many days ahead, as the agent&apos;s list_upcoming window</source>
        <translation>向前看多少天，与智能体 list_upcoming 的窗口相同</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter the calendar</source>
        <translation>筛选日历</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calendar views</source>
        <translation>日历视图</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Agenda</source>
        <translation>日程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Events and tasks merged by time, the overdue first</source>
        <translation>按时间合并的事件和任务，逾期的在前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Month</source>
        <translation>月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The days of the month with what happens on each</source>
        <translation>本月各天及每天发生的事</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Calendar details</source>
        <translation>日历详情</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected event or task</source>
        <translation>所选的事件或任务</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every backup with its age, size and integrity</source>
        <translation>每个备份及其时间、大小和完整性</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backup details</source>
        <translation>备份详情</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Audit log</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every manual edit: who, when and what</source>
        <translation>每次手动编辑：谁、何时、改了什么</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Audit entry</source>
        <translation>审计条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The selected edit, before and after</source>
        <translation>所选编辑的前后对比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New audit entries</source>
        <translation>新的审计条目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Review since</source>
        <translation>审阅起点</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the agent learned and changed, grouped by layer, newest first</source>
        <translation>智能体学到和改变的内容，按层分组，最新的在前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change details</source>
        <translation>变更详情</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before and after</source>
        <translation>前后对比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decay</source>
        <translation>衰减</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of the fact&apos;s score before and after the change</source>
        <translation>变更前后事实分数的图表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ladder</source>
        <translation>等级阶梯</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Messages around</source>
        <translation>相关消息</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Health pages</source>
        <translation>健康页面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What may be wrong with this memory, a page per concern</source>
        <translation>这份记忆可能出了什么问题，每个方面一页</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Recall summary</source>
        <translation>召回摘要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The replayed turns, how many needed an earlier message and the hit rate</source>
        <translation>重放的轮次、其中需要早先消息的数量以及命中率</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Why recall missed</source>
        <translation>召回为何未命中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replay progress</source>
        <translation>重放进度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hit rate by month</source>
        <translation>每月命中率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of the share of turns that needed an earlier message whose recall found one</source>
        <translation>图表：需要早先消息的轮次中，召回找到其一的比例</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Misses by cause</source>
        <translation>未命中的原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of the missed turns by why recall missed</source>
        <translation>图表：按召回未命中的原因统计的未命中轮次</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Strategies compared</source>
        <translation>策略对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of each recall strategy&apos;s hit rate and tokens per hit</source>
        <translation>图表：每种召回策略的命中率和每次命中的 token 数</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Missed turns</source>
        <translation>未命中的轮次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User turns whose recall missed every needed message, most needed first</source>
        <translation>召回未找到任何所需消息的用户轮次，所需最多的在前</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>What the agent saw</source>
        <translation>智能体当时所见</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The context the agent was given at the selected turn</source>
        <translation>所选轮次时智能体得到的上下文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Needed message</source>
        <translation>所需消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The earlier messages the selected turn needed</source>
        <translation>所选轮次需要的早先消息</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Findings</source>
        <translation>发现的问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the checks found, grouped by layer, worst first</source>
        <translation>检查发现的问题，按层分组，最严重的在前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measured values</source>
        <translation>测量值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The values measured for the finding and the threshold they were held against</source>
        <translation>为该问题测得的值及其所对照的阈值</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Measurement chart</source>
        <translation>测量图表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The finding&apos;s measurement against its limit</source>
        <translation>该问题的测量值与其上限的对比</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Changes of the fix</source>
        <translation>修复的更改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every value the fix will change, now and after</source>
        <translation>修复将更改的每个值，当前值与修复后</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The one to keep</source>
        <translation>要保留的一项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decay time in days</source>
        <translation>衰减时间（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category of findings</source>
        <translation>发现的类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind of findings</source>
        <translation>发现的类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Layer of findings</source>
        <translation>发现所在的层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File of findings</source>
        <translation>发现所在的文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Findings by kind and layer</source>
        <translation>按类型和层统计的发现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many findings of each kind each layer holds; a count shows them</source>
        <translation>每一层中各类发现的数量；点击数字即可显示这些发现</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Privacy findings</source>
        <translation>隐私发现</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secrets, personal data and planted instructions, with masked previews</source>
        <translation>机密、个人数据和植入的指令，预览已遮盖</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Finding in its context</source>
        <translation>发现及其上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The text around the finding, the value masked until Show</source>
        <translation>发现周围的文本，在点击“显示”之前值是遮盖的</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How to purge</source>
        <translation>清除方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files the purge rewrites</source>
        <translation>清除将重写的文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What the purge did</source>
        <translation>清除的结果</translation>
    </message>
</context>
<context>
    <name>ActionBar</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/action_bar.py" line="+26"/>
        <source>Not a secret</source>
        <translation>不是机密</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep these findings on your allow-list (outside the database): they are no longer shown</source>
        <translation>把这些发现放入你的允许列表（保存在数据库之外）：之后不再显示</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Purge…</source>
        <translation>清除…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove these values from the database and every backup that holds them</source>
        <translation>从数据库以及所有包含这些值的备份中移除它们</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Turn on editing to purge.</source>
        <translation>打开编辑模式才能清除。</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>%n finding(s) selected</source>
        <translation>
            <numerusform>已选择 %n 个发现</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Nothing selected</source>
        <translation>未选择任何内容</translation>
    </message>
</context>
<context>
    <name>ActionDetail</name>
    <message>
        <location filename="../../philont_desktop/actions/widgets/detail.py" line="+36"/>
        <source>Show the messages around this action</source>
        <translation>显示此操作前后的消息</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>返回结果</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Select an action to see its parameters and result.</source>
        <translation>选择一个操作以查看其参数和返回结果。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Conversation id as stored: %1</source>
        <translation>存储的对话 ID：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(no result recorded)</source>
        <translation>（未记录返回结果）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Time: %1</source>
        <translation>时间：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Conversation: %1</source>
        <translation>对话：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Linked skill: %1</source>
        <translation>关联技能：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trigger: %1</source>
        <translation>触发：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The parameters are not valid JSON; shown as stored.</source>
        <translation>参数不是有效的 JSON，按存储原样显示。</translation>
    </message>
</context>
<context>
    <name>ActionsController</name>
    <message>
        <location filename="../../philont_desktop/actions/controller.py" line="+25"/>
        <source>The action log could not be read</source>
        <translation>无法读取操作记录</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>The Timeline tab is not available.</source>
        <translation>时间线标签页不可用。</translation>
    </message>
</context>
<context>
    <name>ActionsFilterBar</name>
    <message>
        <location filename="../../philont_desktop/actions/widgets/filter_bar.py" line="+22"/>
        <location line="+113"/>
        <source>All tools</source>
        <translation>全部工具</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Any outcome</source>
        <translation>任意结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+104"/>
        <source>Any linked skill</source>
        <translation>任意关联技能</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Linked skill</source>
        <translation>关联技能</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>No actions</source>
        <translation>没有操作</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 action</source>
        <translation>1 个操作</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 actions</source>
        <translation>%1 个操作</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1+ actions (more as you scroll)</source>
        <translation>%1+ 个操作（滚动加载更多）</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>%1 actions · %2 shown, more as you scroll</source>
        <translation>%1 个操作 · 已显示 %2 个，滚动加载更多</translation>
    </message>
</context>
<context>
    <name>ActionsModel</name>
    <message>
        <location filename="../../philont_desktop/actions/model.py" line="+84"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Linked skill</source>
        <translation>关联技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Result</source>
        <translation>返回结果</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failure</source>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>ActionsTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="+200"/>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>ActivityChart</name>
    <message>
        <location filename="../../philont_desktop/timeline/widgets/chart.py" line="+75"/>
        <source>Clear range</source>
        <translation>清除范围</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>Messages per day · range %1 – %2 (%3) · drag to change</source>
        <translation>每日消息数 · 范围 %1 – %2（%3）· 拖动以调整</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <location line="+5"/>
        <source>%Ln message(s)</source>
        <translation>
            <numerusform>%Ln 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Messages per day · %1 on %2 · drag across the chart to filter by date</source>
        <translation>每日消息数 · %2内共 %1 · 在图上拖动可按日期筛选</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln day(s)</source>
        <translation>
            <numerusform>%Ln 天</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Messages per day</source>
        <translation>每日消息数</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>⚠ %n message(s) with an unreadable time, on no day</source>
        <translation>
            <numerusform>⚠ %n 条消息的时间无法读取，不计入任何一天</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ActivityPane</name>
    <message>
        <location filename="../../philont_desktop/timeline/widgets/activity.py" line="+35"/>
        <source>Counting messages per day…</source>
        <extracomment>How long the chart waits for the tab&apos;s reads to end before it is made anyway.</extracomment>
        <translation>正在统计每天的消息数…</translation>
    </message>
</context>
<context>
    <name>AddNoteDialog</name>
    <message>
        <location filename="../../philont_desktop/notes/widgets/add_dialog.py" line="+21"/>
        <source>Add a note</source>
        <translation>添加笔记</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What should be remembered?</source>
        <translation>需要记住什么？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <location filename="../../philont_desktop/context.py" line="+138"/>
        <source>Checking database integrity</source>
        <translation>正在检查数据库完整性</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>the app was started with --read-only</source>
        <translation>程序以 --read-only 启动</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Editing mode is off: turn it on to change the database.</source>
        <translation>编辑模式已关闭：开启后才能修改数据库。</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Editing mode is off; the database is only read.</source>
        <translation>编辑模式已关闭；数据库仅被读取。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Editing is not possible</source>
        <translation>无法编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database cannot be edited: {0}.</source>
        <translation>此数据库无法编辑：{0}。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(new database: no backup needed)</source>
        <translation>（新数据库：无需备份）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Editing mode is on. Backup taken first: {0}</source>
        <translation>编辑模式已开启。已先行备份：{0}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Editing mode could not be turned on</source>
        <translation>无法开启编辑模式</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Backing up before editing</source>
        <translation>编辑前备份中</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>A background task failed</source>
        <translation>后台任务失败</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>quick integrity check failed: {0}</source>
        <translation>快速完整性检查失败：{0}</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>the database file was replaced or deleted on disk after it was opened</source>
        <translation>数据库文件在打开之后已在磁盘上被替换或删除</translation>
    </message>
</context>
<context>
    <name>AuditBar</name>
    <message>
        <location filename="../../philont_desktop/audit/widgets/bar.py" line="+23"/>
        <source>All targets</source>
        <translation>全部对象</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Undo this change</source>
        <translation>撤销此变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Redo this change</source>
        <translation>重做此变更</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>{0} new ↑</source>
        <translation>{0} 条新记录 ↑</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{0}{1} entries</source>
        <translation>{0}{1} 条记录</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>{0} entries · {1} shown, more as you scroll</source>
        <translation>{0} 条记录 · 已显示 {1} 条，滚动加载更多</translation>
    </message>
</context>
<context>
    <name>AuditController</name>
    <message>
        <location filename="../../philont_desktop/audit/controller.py" line="+26"/>
        <source>The audit trail cannot be read</source>
        <translation>无法读取审计记录</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>{0} (audit entry #{1})</source>
        <translation>{0}（审计记录 #{1}）</translation>
    </message>
</context>
<context>
    <name>AuditModel</name>
    <message>
        <location filename="../../philont_desktop/audit/model.py" line="+54"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>undo {0}</source>
        <translation>撤销 {0}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>redo {0}</source>
        <translation>重做 {0}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>As stored:</source>
        <translation>存储的值：</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>undo of #{0}</source>
        <translation>撤销 #{0}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>redo of #{0}</source>
        <translation>重做 #{0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>undone</source>
        <translation>已撤销</translation>
    </message>
</context>
<context>
    <name>AuditTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="+21"/>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/audit/view.py" line="+96"/>
        <source>No manual edits of this kind.</source>
        <translation>没有这一类的手动编辑。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No manual edits yet.</source>
        <translation>还没有手动编辑。</translation>
    </message>
</context>
<context>
    <name>BackupsBar</name>
    <message>
        <location filename="../../philont_desktop/backups/widgets/bar.py" line="+20"/>
        <source>Back up now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open read-only to compare</source>
        <translation>以只读方式打开对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Not possible: the app was started read-only.</source>
        <translation>无法进行：程序以只读方式启动。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This backup fails the quick integrity check.</source>
        <translation>此备份未通过快速完整性检查。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Replace the database&apos;s content with the selected backup.</source>
        <translation>用所选备份替换数据库的内容。</translation>
    </message>
</context>
<context>
    <name>BackupsController</name>
    <message>
        <location filename="../../philont_desktop/backups/controller.py" line="+66"/>
        <source>The backups could not be listed</source>
        <translation>无法列出备份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Listing backups</source>
        <translation>正在列出备份</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Checking backups</source>
        <translation>正在检查备份</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Backup written to {0}</source>
        <translation>备份已写入 {0}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The backup failed</source>
        <translation>备份失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backing up</source>
        <translation>正在备份</translation>
    </message>
</context>
<context>
    <name>BackupsFooter</name>
    <message>
        <location filename="../../philont_desktop/backups/widgets/footer.py" line="+19"/>
        <source>Restoring replaces the content of the open database with the backup. It is only possible while the agent is not running (no other program may have the database open); the current file is backed up first, so a restore can itself be undone by restoring that backup (a damaged file is moved into the backups folder unchanged instead). Browsing a backup never writes anything into the backups folder.</source>
        <translation>恢复会用备份替换当前打开的数据库内容。只有在智能体未运行（没有其他程序打开该数据库）时才能进行；当前文件会先被备份，因此恢复本身也可以通过恢复那份备份来撤回（损坏的文件则会被原样移入备份文件夹）。浏览备份不会向备份文件夹写入任何内容。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{0} — {1} bytes — quick integrity check: {2}</source>
        <translation>{0} — {1} 字节 — 快速完整性检查：{2}</translation>
    </message>
</context>
<context>
    <name>BackupsHeader</name>
    <message>
        <location filename="../../philont_desktop/backups/widgets/header.py" line="+29"/>
        <source>This window shows the backup {0} read-only, for comparing. Its own backups are not listed, and nothing can be backed up or restored here.</source>
        <translation>此窗口以只读方式显示备份 {0}，用于对比。这里不列出它自己的备份，也不能进行备份或恢复。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Backups of {0} are kept in {1}.</source>
        <translation>{0} 的备份保存在 {1}。</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>The quick integrity check fails for %n.</source>
        <translation>
            <numerusform>其中 %n 个未通过快速完整性检查。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The database was last written {0}.</source>
        <translation>数据库最后写入：{0}。</translation>
    </message>
    <message numerus="yes">
        <location line="-13"/>
        <source>%n backup(s), {0} in all; newest {1}.</source>
        <translation>
            <numerusform>%n 个备份，共 {0}；最新：{1}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n damaged file(s) kept by earlier restores (damaged-…).</source>
        <translation>
            <numerusform>之前的恢复保留了 %n 个损坏的文件（damaged-…）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BackupsModel</name>
    <message>
        <location filename="../../philont_desktop/backups/model.py" line="+80"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Written by</source>
        <translation>写入者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Age</source>
        <translation>距今</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>UTC: {0}</source>
        <translation>UTC：{0}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copied by the agent from its WAL database: browsing it uses a private copy.</source>
        <translation>由智能体从其 WAL 数据库复制：浏览时使用一份私有副本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A self-contained copy: it can be browsed in place.</source>
        <translation>独立完整的副本：可以直接浏览。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{0} bytes</source>
        <translation>{0} 字节</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Written by the agent: its own rotation keeps or deletes it; this app never does.</source>
        <translation>由智能体写入：由它自己的轮换保留或删除；本应用从不删除它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Written by this app: the agent never counts or deletes it.</source>
        <translation>由本应用写入：智能体从不计入或删除它。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>the agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>this app</source>
        <translation>本应用</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>agent (WAL)</source>
        <translation>智能体（WAL）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>self-contained</source>
        <translation>独立副本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location line="-60"/>
        <source>Not a regular file: it is never opened, so it cannot hang anything.</source>
        <translation>不是普通文件：它从不会被打开，因此不会造成任何卡顿。</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Integrity check</source>
        <translation>完整性检查</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>Files beside it ({0}) are not part of the backup and are ignored.</source>
        <translation>它旁边的文件（{0}）不属于这份备份，会被忽略。</translation>
    </message>
</context>
<context>
    <name>BackupsTab</name>
    <message>
        <location line="-141"/>
        <source>in the future</source>
        <translation>在将来</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} min ago</source>
        <translation>{0} 分钟前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} h ago</source>
        <translation>{0} 小时前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{0} d ago</source>
        <translation>{0} 天前</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-1"/>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/backups/view.py" line="+261"/>
        <source>Restore a backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Restoring needs the main window to close and reopen the database.</source>
        <translation>恢复需要主窗口关闭并重新打开数据库。</translation>
    </message>
    <message>
        <location line="-108"/>
        <source>the list of backups</source>
        <translation>备份列表</translation>
    </message>
    <message>
        <location line="-105"/>
        <source>No backups yet. “Back up now” writes the first one.</source>
        <translation>还没有备份。点击“立即备份”创建第一份。</translation>
    </message>
    <message>
        <location line="+188"/>
        <source>Replace the content of the open database

    {0}

with the backup

    {1}
    (created {2}, {3})?

The current file is kept in {4}: backed up first, or, when it is damaged, moved there unchanged. The agent must not be running: the restore is refused while another program has the database open. The database is closed during the restore and opened again afterwards; the undo history is cleared.</source>
        <translation>将当前打开的数据库

    {0}

的内容替换为备份

    {1}
    （创建于 {2}，{3}）吗？

当前文件会保存在 {4}：先做备份；如果它已损坏，则原样移到那里。智能体必须处于未运行状态：只要有其他程序打开着该数据库，恢复就会被拒绝。恢复期间数据库会被关闭，完成后重新打开；撤销历史将被清空。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The backup was not restored</source>
        <translation>备份未恢复</translation>
    </message>
</context>
<context>
    <name>Banners</name>
    <message>
        <location filename="../../philont_desktop/shell/banners.py" line="+135"/>
        <source>not needed (new file)</source>
        <translation>不需要（新文件）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Editing mode.&lt;/b&gt; Changes are written to this database and recorded in its audit log. A backup was taken first: {0}</source>
        <translation>&lt;b&gt;编辑模式。&lt;/b&gt;更改会写入此数据库并记入其审计记录。已先行备份：{0}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop editing</source>
        <translation>停止编辑</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;Read-only.&lt;/b&gt; This database cannot be edited here: {0}.</source>
        <translation>&lt;b&gt;只读。&lt;/b&gt;无法在此编辑该数据库：{0}。</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>&lt;b&gt;The database file was deleted on disk.&lt;/b&gt; What is shown is the file as it was opened; live refresh stopped and editing is off.</source>
        <translation>&lt;b&gt;数据库文件已在磁盘上被删除。&lt;/b&gt;此处显示的是打开时的文件；实时刷新已停止，编辑已关闭。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;The database file was emptied on disk.&lt;/b&gt; What is shown is the file as it was opened; live refresh stopped and editing is off.</source>
        <translation>&lt;b&gt;数据库文件已在磁盘上被清空。&lt;/b&gt;此处显示的是打开时的文件；实时刷新已停止，编辑已关闭。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;b&gt;The database file was replaced on disk.&lt;/b&gt; What is shown is the file as it was opened, not the new one; live refresh stopped and editing is off. Reopen it to see the new file.</source>
        <translation>&lt;b&gt;数据库文件已在磁盘上被替换。&lt;/b&gt;此处显示的是打开时的文件，而不是新文件；实时刷新已停止，编辑已关闭。重新打开即可查看新文件。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
</context>
<context>
    <name>BaselineBar</name>
    <message>
        <location filename="../../philont_desktop/review/widgets/baseline_bar.py" line="+50"/>
        <location line="+115"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location line="-110"/>
        <location line="+111"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-104"/>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>since the last review</source>
        <translation>自上次审阅以来</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>since a time</source>
        <translation>自某个时间以来</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compared with a backup</source>
        <translation>与备份比较</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Never reviewed: showing the last 7 days</source>
        <translation>尚未审阅过：显示最近 7 天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reviewed up to {0}</source>
        <translation>已审阅至 {0}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Another file…</source>
        <translation>其他文件…</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Compare with a backup</source>
        <translation>与备份比较</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SQLite databases (*.sqlite *.db);;All files (*)</source>
        <translation>SQLite 数据库 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>BoardWidget</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/board.py" line="+224"/>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No skill matches the filter.</source>
        <translation>没有符合筛选条件的技能。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No skills.</source>
        <translation>没有技能。</translation>
    </message>
</context>
<context>
    <name>BudgetPanel</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/budgets.py" line="+191"/>
        <source>Budgets</source>
        <translation>预算</translation>
    </message>
</context>
<context>
    <name>BulkConfirmDialog</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/bulk_dialog.py" line="+46"/>
        <location line="+40"/>
        <source>Fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Left out ({0}):</source>
        <translation>未纳入（{0}）：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is one change: one Undo reverts all of it.</source>
        <translation>这是一次变更：撤销一次即可全部还原。</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pinned (tau was {0})</source>
        <translation>已固定（原 τ 为 {0}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unpinned → namespace default {0}</source>
        <translation>取消固定 → 命名空间默认值 {0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>→ {0}</source>
        <translation>→ {0}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(supersedes the version stored {0}: {1})</source>
        <translation>（取代 {0} 存储的版本：{1}）</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>Forget facts</source>
        <translation>遗忘事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Forget {0} facts</source>
        <translation>遗忘 {0} 条事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pin facts</source>
        <translation>固定事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Pin {0} facts</source>
        <translation>固定 {0} 条事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin facts</source>
        <translation>取消固定事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unpin {0} facts</source>
        <translation>取消固定 {0} 条事实</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Move facts to {0}</source>
        <translation>将事实移到 {0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move {0} facts</source>
        <translation>移动 {0} 条事实</translation>
    </message>
    <message numerus="yes">
        <location line="+39"/>
        <source>%n fact(s) will be forgotten (soft: they stay in the history and can be unforgotten).</source>
        <translation>
            <numerusform>将遗忘 %n 条事实（软遗忘：它们仍保留在历史中，可以恢复）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n fact(s) will be pinned: they stop decaying.</source>
        <translation>
            <numerusform>将固定 %n 条事实：它们不再衰减。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n fact(s) will be unpinned: their namespace&apos;s tau applies again.</source>
        <translation>
            <numerusform>将取消固定 %n 条事实：重新使用其命名空间的 tau。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n fact(s) will be stored under namespace &quot;{0}&quot; with the same key and value; the old ones are forgotten.</source>
        <translation>
            <numerusform>%n 条事实将以相同的键和值存入命名空间“{0}”；旧的将被遗忘。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CalendarController</name>
    <message>
        <location filename="../../philont_desktop/calendar/controller.py" line="+53"/>
        <source>Loading the calendar</source>
        <translation>正在加载日历</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The calendar could not be loaded</source>
        <translation>无法加载日历</translation>
    </message>
</context>
<context>
    <name>CalendarTab</name>
    <message>
        <location filename="../../philont_desktop/calendar/cells.py" line="+88"/>
        <source>(payload is not valid JSON)</source>
        <translation>（负载不是有效的 JSON）</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-2"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/calendar/view.py" line="+218"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+55"/>
        <location line="+31"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Enable task “{0}”</source>
        <translation>启用任务“{0}”</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Disable task “{0}”</source>
        <translation>停用任务“{0}”</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Delete the task “{0}” (next run {1})?

The agent will not run it any more. You can undo this with Edit › Undo.</source>
        <translation>删除任务“{0}”（下次运行 {1}）吗？

智能体将不再运行它。可以通过“编辑 › 撤销”撤回。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete task “{0}”</source>
        <translation>删除任务“{0}”</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> and all its repetitions</source>
        <translation>及其所有重复</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the event “{0}” ({1}){2}?

You can undo this with Edit › Undo.</source>
        <translation>删除事件“{0}”（{1}）{2}吗？

可以通过“编辑 › 撤销”撤回。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete event “{0}”</source>
        <translation>删除事件“{0}”</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/calendar/cells.py" line="-23"/>
        <source>Paused until {0}: the agent&apos;s scheduler skips this task until then (it pauses a task after repeated failures). list_upcoming still lists it.</source>
        <translation>暂停至 {0}：在此之前智能体的调度器会跳过这个任务（任务连续失败后会被暂停）。list_upcoming 仍会列出它。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Stored rule: {0}</source>
        <translation>存储的规则：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../philont_desktop/calendar/view.py" line="-89"/>
        <source>%n event occurrence(s)</source>
        <translation>
            <numerusform>%n 次事件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n task(s)</source>
        <translation>
            <numerusform>%n 个任务</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Next %n day(s): {0}</source>
        <translation>
            <numerusform>未来 %n 天：{0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n overdue</source>
        <translation>
            <numerusform>%n 个已逾期</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n paused task(s)</source>
        <translation>
            <numerusform>%n 个已暂停的任务</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n disabled task(s) not listed</source>
        <translation>
            <numerusform>%n 个已停用的任务未列出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CalendarTables</name>
    <message>
        <location filename="../../philont_desktop/calendar/widgets/tables.py" line="+222"/>
        <source>All events ({0})</source>
        <translation>全部事件（{0}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>All tasks ({0})</source>
        <translation>全部任务（{0}）</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Agenda ({0})</source>
        <extracomment>The time columns of each table and a sample of their longest text: a restored header never makes them narrower than that (widths saved in another language, font or screen clipped the times).</extracomment>
        <translation>日程 ({0})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Month</source>
        <translation>月</translation>
    </message>
</context>
<context>
    <name>CalendarToolbar</name>
    <message>
        <location filename="../../philont_desktop/calendar/widgets/toolbar.py" line="+25"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many days ahead, as the agent&apos;s list_upcoming window (1–90).</source>
        <translation>向前查看多少天，与智能体 list_upcoming 的时间窗口一致（1–90）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by title, task, zone, message…</source>
        <translation>按标题、任务、时区、消息筛选…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enable task</source>
        <translation>启用任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Disable task</source>
        <translation>停用任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+29"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Coming up in the next</source>
        <translation>显示未来</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Delete task…</source>
        <translation>删除任务…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete event…</source>
        <translation>删除事件…</translation>
    </message>
</context>
<context>
    <name>CardDelegate</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/card.py" line="+306"/>
        <source>avoid</source>
        <translation>避免</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>recipe</source>
        <translation>流程</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>{0} in a row</source>
        <translation>连续 {0} 次</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>from disk</source>
        <translation>来自磁盘</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>⚠ unreadable JSON in this row</source>
        <translation>⚠ 此行有无法读取的 JSON</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>⚠ unknown grade, read as draft</source>
        <translation>⚠ 未知等级，按草稿读取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>demoted, awaiting repair</source>
        <translation>已降级，等待修复</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>%n use(s)</source>
        <translation>
            <numerusform>%n 次使用</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>never used</source>
        <translation>从未使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>used {0}</source>
        <translation>{0}使用</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>⚠ unreadable: {0}</source>
        <translation>⚠ 无法读取：{0}</translation>
    </message>
</context>
<context>
    <name>ChangeTreeModel</name>
    <message>
        <location filename="../../philont_desktop/review/model.py" line="+172"/>
        <source>Who made the change, when a person made it in this app; otherwise how its time is known: “derived” means worked out from other data (the action log, the decay model), not recorded with the change; “unknown time” means only a backup comparison saw it.</source>
        <translation>变更由谁做出（若是有人在本应用中做出）；否则说明其时间从何得知：“推算”表示时间是由其他数据（操作日志、衰减模型）推算出来的，并非随变更记录；“时间未知”表示只有与备份比较时才看到这项变更。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>{0} ({1}, {2} reviewed)</source>
        <translation>{0}（{1}，已审阅 {2}）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{0} ({1})</source>
        <translation>{0}（{1}）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>derived</source>
        <translation>推算</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>unknown time</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>made in this app by {0}</source>
        <translation>由 {0} 在本应用中修改</translation>
    </message>
    <message>
        <location line="-60"/>
        <source>When</source>
        <translation>多久前</translation>
    </message>
</context>
<context>
    <name>ContextController</name>
    <message>
        <location filename="../../philont_desktop/context_tab/controller.py" line="+252"/>
        <source>Computing the context preview</source>
        <translation>正在计算上下文预览</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>The context could not be computed</source>
        <translation>无法计算上下文</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Exporting the context</source>
        <translation>正在导出上下文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The JSON could not be written</source>
        <translation>无法写入 JSON</translation>
    </message>
    <message>
        <location line="-263"/>
        <source>No home conversation</source>
        <extracomment>The rest of the preview is shown first when the full one takes longer than this (ms). Messages are compared up to this many characters (the preview shows fewer). Inputs whose change starts a new computation (after the debounce). Inputs the memory prefix depends on (a change drops the kept prefix). A preview was put on screen (the full one, not the provisional): ``ContextResult``.</extracomment>
        <translation>无所属对话</translation>
    </message>
</context>
<context>
    <name>ContextPane</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/context_pane.py" line="+38"/>
        <location line="+87"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location line="-85"/>
        <location line="+80"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Show the whole value in the text above (hidden again when you choose another)</source>
        <translation>在上方文本中显示完整的值（选择其他发现时会再次隐藏）</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Choose a finding to see it in its context.</source>
        <translation>选择一个发现以查看其上下文。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{kind} ({category}) in {layer}, {place}, {file}</source>
        <translation>{kind}（{category}），位于{layer}，{place}，{file}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Reading the text around it…</source>
        <translation>正在读取它周围的文本…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The whole value is shown. It is masked again when you choose another finding.</source>
        <translation>正在显示完整的值。选择其他发现时会再次遮盖。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The value is masked: Show puts it whole in the text above.</source>
        <translation>值已遮盖：“显示”会把完整的值放进上方文本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
</context>
<context>
    <name>ContextTab</name>
    <message>
        <location filename="../../philont_desktop/context_tab/view.py" line="+66"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+157"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>Copy as text</source>
        <translation>复制为文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The same JSON as “philont-memory context --json” (file readable only by you)</source>
        <translation>与“philont-memory context --json”相同的 JSON（文件仅你本人可读）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin for comparison</source>
        <translation>固定以便对比</translation>
    </message>
    <message>
        <location line="+109"/>
        <source>Type a message, or pick a past one.</source>
        <translation>输入一条消息，或选择一条过去的消息。</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-4"/>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/context_tab/view.py" line="+1"/>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Searching the timeline for recall candidates…</source>
        <translation>正在时间线中搜索召回候选…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The picked message no longer exists.</source>
        <translation>所选消息已不存在。</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>The context could not be computed.</source>
        <translation>无法计算上下文。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 prefix tokens</source>
        <translation>前缀 %1 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 timeline tokens (%2 recent, %3 recalled)</source>
        <translation>时间线 %1 token（近期 %2，召回 %3）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>computed in %1 ms</source>
        <translation>用时 %1 毫秒</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>This turn</source>
        <translation>本轮</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Message #%1 · %2 · %3</source>
        <translation>消息 #%1 · %2 · %3</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>The whole context was copied as text.</source>
        <translation>已将完整上下文复制为文本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export the context as JSON</source>
        <translation>将上下文导出为 JSON</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location line="-252"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>(empty message)</source>
        <translation>（空消息）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pinned at %1: “%2”. Compared with the current preview (− pinned, + current).</source>
        <translation>于 %1 固定：“%2”。与当前预览对比（− 固定的，+ 当前的）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Compare (pinned)</source>
        <translation>对比（已固定）</translation>
    </message>
    <message numerus="yes">
        <location line="-24"/>
        <source>%n left out</source>
        <translation>
            <numerusform>%n 条被略去</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <location filename="../../philont_desktop/timeline/conversation.py" line="+264"/>
        <source>1 new message</source>
        <translation>1 条新消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 new messages</source>
        <translation>%1 条新消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>999+ new messages</source>
        <translation>999+ 条新消息</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>Collapse</source>
        <translation>收起</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Expand</source>
        <translation>展开</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open full text…</source>
        <translation>打开全文…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>ConversationsModel</name>
    <message>
        <location filename="../../philont_desktop/widgets/conversations.py" line="+45"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>First</source>
        <translation>首条</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Last</source>
        <translation>最近</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Counting messages…</source>
        <translation>正在统计消息…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>First message: %1</source>
        <translation>首条消息：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last message: %1</source>
        <translation>最近一条消息：%1</translation>
    </message>
    <message numerus="yes">
        <location line="-4"/>
        <source>%Ln message(s)</source>
        <translation>
            <numerusform>%Ln 条消息</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DatabaseSession</name>
    <message>
        <location filename="../../philont_desktop/shell/session.py" line="+163"/>
        <source>Opening {0}</source>
        <translation>正在打开 {0}</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>The demo database was not created</source>
        <translation>未能创建演示数据库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A file already exists at this path; it was left alone.</source>
        <translation>此路径已存在文件；未做任何改动。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generating a demo database at {0}…</source>
        <translation>正在 {0} 生成演示数据库…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Generating demo database</source>
        <translation>正在生成演示数据库</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The database was not created</source>
        <translation>未能创建数据库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Creating database</source>
        <translation>正在创建数据库</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The backup failed</source>
        <translation>备份失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backing up</source>
        <translation>正在备份</translation>
    </message>
</context>
<context>
    <name>DatabaseTables</name>
    <message>
        <location filename="../../philont_desktop/database_tables.py" line="+29"/>
        <source>Memory layers</source>
        <translation>记忆层</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The agent&apos;s other tables</source>
        <translation>智能体的其他表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This application&apos;s tables</source>
        <translation>本应用的表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full-text indexes</source>
        <translation>全文索引</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SQLite&apos;s own tables</source>
        <translation>SQLite 自身的表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown tables</source>
        <translation>未知的表</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Reading the list of tables…</source>
        <translation>正在读取表的列表…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Table</source>
        <translation>表</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rows</source>
        <translation>行数</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Counting rows…</source>
        <translation>正在统计行数…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{0} tables</source>
        <translation>{0} 张表</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The tables could not be read: {0}</source>
        <translation>无法读取表：{0}</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>virtual</source>
        <translation>虚拟表</translation>
    </message>
</context>
<context>
    <name>DecayCurvePlot</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/decay_plot.py" line="+178"/>
        <location line="+34"/>
        <location line="+98"/>
        <source>forget threshold {0}</source>
        <translation>遗忘阈值 {0}</translation>
    </message>
    <message>
        <location line="-128"/>
        <location line="+31"/>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>view: {0}</source>
        <translation>查看时间：{0}</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>Select facts in the table to see how their scores fade.</source>
        <translation>在表格中选择事实，查看其得分如何衰减。</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>{0}: last read {1} (the score restarts here)</source>
        <translation>{0}：最后读取于 {1}（得分从此处重新计算）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{0}: stored {1}</source>
        <translation>{0}：存储于 {1}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{0}: below {1} from {2}</source>
        <translation>{0}：自 {2} 起低于 {1}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>pinned · no decay</source>
        <translation>已固定 · 不衰减</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>user.* · never decays</source>
        <translation>user.* · 永不衰减</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{0}: invalid confidence {1}, drawn at 0</source>
        <translation>{0}：置信度无效（{1}），按 0 绘制</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>what if: tau {0}, confidence {1}</source>
        <translation>假设：τ {0}，置信度 {1}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Showing the first {0} of {1} selected facts.</source>
        <translation>显示所选 {1} 条事实中的前 {0} 条。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>invalid confidence {0}: drawn at 0</source>
        <translation>置信度无效（{0}）：按 0 绘制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pinned: never decays</source>
        <translation>已固定：永不衰减</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>user.*: never decays</source>
        <translation>user.*：永不衰减</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>stays above the threshold</source>
        <translation>始终高于阈值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>below the threshold since {0}</source>
        <translation>自 {0} 起低于阈值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>below the threshold {0} ({1})</source>
        <translation>{0}低于阈值（{1}）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>next crossing {0}</source>
        <translation>下次跌破阈值：{0}</translation>
    </message>
    <message>
        <location line="-456"/>
        <source>date (local time)</source>
        <translation>日期（本地时间）</translation>
    </message>
    <message numerus="yes">
        <location line="+450"/>
        <source>%n fact(s)</source>
        <translation>
            <numerusform>%n 条事实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n without decay (pinned or user.*)</source>
        <translation>
            <numerusform>%n 条不衰减（已固定或 user.*）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n already below the threshold</source>
        <translation>
            <numerusform>%n 条已低于阈值</numerusform>
        </translation>
    </message>
    <message>
        <location line="-455"/>
        <source>score</source>
        <translation>得分</translation>
    </message>
</context>
<context>
    <name>DecayPlot</name>
    <message>
        <location filename="../../philont_desktop/review/widgets/decay_plot.py" line="+38"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
</context>
<context>
    <name>DemoBadge</name>
    <message>
        <location filename="../../philont_desktop/shell/demo_badge.py" line="+28"/>
        <source>Demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A generated demo database: its conversations, facts and skills are made up. Open your own memory with File › Open.</source>
        <translation>生成的演示数据库：其中的对话、事实和技能都是虚构的。请用“文件 › 打开”打开你自己的记忆库。</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/detail.py" line="+53"/>
        <source>Edit recipe…</source>
        <translation>编辑流程…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit details…</source>
        <translation>编辑详情…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set grade…</source>
        <translation>设置等级…</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+107"/>
        <source>Mark as avoid</source>
        <translation>标记为避免</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ladder history</source>
        <translation>等级历史</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revisions</source>
        <translation>修订</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Select a skill on the board to see why it has its grade.</source>
        <translation>在看板上选择一个技能，查看它为何处于当前等级。</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Rewrite the recipe; the current version is kept in its revision history.</source>
        <translation>重写流程；当前版本会保留在修订历史中。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only a recipe (a skill with a verification) has versions to revise.</source>
        <translation>只有流程（带验证的技能）才有可修订的版本。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Mark as positive</source>
        <translation>标记为正面</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>avoid</source>
        <translation>避免</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>recipe</source>
        <translation>流程</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>from disk</source>
        <translation>来自磁盘</translation>
    </message>
</context>
<context>
    <name>DetailsDialog</name>
    <message>
        <location filename="../../philont_desktop/skills/dialogs.py" line="+124"/>
        <source>Edit {0}</source>
        <translation>编辑 {0}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>keywords, separated by commas</source>
        <translation>关键词，用逗号分隔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>When to use</source>
        <translation>使用时机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trigger keywords</source>
        <translation>触发关键词</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Action template</source>
        <translation>操作模板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>These fields keep no history; the audit trail records the change and Undo reverts it.</source>
        <translation>这些字段不保留历史；审计记录会记下此次变更，撤销可以还原。</translation>
    </message>
</context>
<context>
    <name>DetailsPane</name>
    <message>
        <location filename="../../philont_desktop/calendar/widgets/details.py" line="+60"/>
        <source>Select a row to see its details.</source>
        <translation>选择一行以查看详情。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>What list_upcoming tells the agent:</source>
        <translation>list_upcoming 告诉智能体的内容：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This occurrence</source>
        <translation>本次发生</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ends</source>
        <translation>结束</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>First start</source>
        <translation>首次开始</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+29"/>
        <source>Repeats</source>
        <translation>重复</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Related fact</source>
        <translation>相关事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>External ref</source>
        <translation>外部引用</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+35"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="-34"/>
        <location line="+35"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>enabled, paused: the agent&apos;s scheduler skips it until {0}</source>
        <translation>已启用，已暂停：智能体的调度器在 {0} 之前会跳过它</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>enabled, overdue</source>
        <translation>已启用，已逾期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failures in a row</source>
        <translation>连续失败次数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paused until</source>
        <translation>暂停至</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created by</source>
        <translation>创建者</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Payload</source>
        <translation>负载</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>UTC {0}</source>
        <translation>UTC {0}</translation>
    </message>
    <message>
        <location line="-127"/>
        <source>Nothing on this day.</source>
        <translation>这一天没有安排。</translation>
    </message>
    <message>
        <location line="+91"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/diff_view.py" line="+38"/>
        <source>Unified</source>
        <translation>统一视图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 lines of context</source>
        <translation>%1 行上下文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole text</source>
        <translation>全文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Nothing is pinned. Pin a preview, change something (a fact, the message, a budget), and compare here.</source>
        <translation>没有固定任何内容。先固定一个预览，再修改某些内容（一条事实、消息或预算），然后在这里对比。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>identical</source>
        <translation>完全相同</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>+%1 −%2 lines</source>
        <translation>+%1 −%2 行</translation>
    </message>
    <message>
        <source>The two previews are identical.</source>
        <translation>两个预览完全相同。</translation>
    </message>
    <message numerus="yes">
        <location line="+51"/>
        <source>⋯ %n unchanged line(s)</source>
        <translation>
            <numerusform>⋯ %n 行未改变</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DoctorPage</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/page.py" line="+113"/>
        <source>Check again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run every check again (F5)</source>
        <translation>重新运行所有检查（F5）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Reading the last check</source>
        <translation>正在读取上次检查结果</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Checking the memory&apos;s health</source>
        <translation>正在检查记忆的健康状况</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The checks failed: {0}</source>
        <translation>检查失败：{0}</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Last checked {0}.</source>
        <translation>上次检查：{0}。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Checking… ({0} of {1} layers)</source>
        <translation>正在检查…（第 {0} 层，共 {1} 层）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing found wrong.</source>
        <translation>未发现问题。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Remembering they are not duplicates</source>
        <translation>正在记住它们不是重复项</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+25"/>
        <source>Working out the fix</source>
        <translation>正在计算修复</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/pages.py" line="+42"/>
        <source>Doctor</source>
        <translation>诊断</translation>
    </message>
</context>
<context>
    <name>EditBar</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/edit_bar.py" line="+22"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tau…</source>
        <translation>τ…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget</source>
        <translation>遗忘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unforget</source>
        <translation>取消遗忘</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Bulk</source>
        <translation>批量</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forget all forget-pool candidates…</source>
        <translation>遗忘遗忘池中的全部候选…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget selected…</source>
        <translation>遗忘所选…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pin selected…</source>
        <translation>固定所选…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin selected…</source>
        <translation>取消固定所选…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move selected to namespace…</source>
        <translation>将所选移到命名空间…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Every change is audited and can be undone (Ctrl+Z).</source>
        <translation>每次变更都会记入审计，并且可以撤销（Ctrl+Z）。</translation>
    </message>
</context>
<context>
    <name>EntryDetail</name>
    <message>
        <location filename="../../philont_desktop/audit/widgets/detail.py" line="+42"/>
        <source>No manual edits are recorded in this database yet. Edits made in editing mode appear here: who, when, what, and the state before and after.</source>
        <translation>此数据库中尚无手动编辑记录。在编辑模式下所做的修改会显示在这里：由谁、何时、改了什么，以及修改前后的状态。</translation>
    </message>
</context>
<context>
    <name>ErrorTab</name>
    <message>
        <location filename="../../philont_desktop/shell/tab_host.py" line="+50"/>
        <source>This tab could not be loaded:

{0}</source>
        <translation>无法加载此标签页：

{0}</translation>
    </message>
</context>
<context>
    <name>EventsModel</name>
    <message>
        <location filename="../../philont_desktop/calendar/model.py" line="+381"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Starts</source>
        <translation>开始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ends</source>
        <translation>结束</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeats</source>
        <translation>重复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Related fact</source>
        <translation>相关事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>External ref</source>
        <translation>外部引用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>UTC: {0}</source>
        <translation>UTC：{0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the event&apos;s zone: {0}</source>
        <translation>事件所在时区：{0}</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../philont_desktop/export_dialog.py" line="+68"/>
        <source>Messages (timeline)</source>
        <translation>消息（时间线）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Actions (tool calls)</source>
        <translation>操作（工具调用）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Facts (every version)</source>
        <translation>事实（所有版本）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calendar events</source>
        <translation>日历事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduled tasks</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>JSON Lines (.jsonl): one object per line</source>
        <translation>JSON Lines（.jsonl）：每行一个对象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON (.json): one array</source>
        <translation>JSON（.json）：一个数组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV (.csv): a header line, JSON as text</source>
        <translation>CSV（.csv）：一行表头，JSON 作为文本</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>the table shown in {0} ({1} rows loaded)</source>
        <translation>{0}中显示的表格（已加载 {1} 行）</translation>
    </message>
    <message>
        <location line="+38"/>
        <location line="+88"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>A whole layer:</source>
        <translation>整个层：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The current view: {0}</source>
        <translation>当前视图：{0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The current view (this tab has nothing to export)</source>
        <translation>当前视图（此标签页没有可导出的内容）</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Add a byte-order mark (Excel then reads the file as UTF-8)</source>
        <translation>添加字节顺序标记（Excel 才能按 UTF-8 读取文件）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write JSON columns as JSON values (else as their text)</source>
        <translation>将 JSON 列写为 JSON 值（否则写为文本）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file is readable only by you (0600). It appears when the export is complete.</source>
        <translation>文件仅你本人可读（0600）。导出完成后文件才会出现。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Choose a file to export to.</source>
        <translation>请选择要导出到的文件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The folder {0} does not exist.</source>
        <translation>文件夹 {0} 不存在。</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Exporting</source>
        <translation>导出中</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>Exporting to {0}…</source>
        <translation>正在导出到 {0}…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{0} of about {1} rows…</source>
        <translation>{0} / 约 {1} 行…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Exported {0} rows to {1} ({2} bytes).</source>
        <translation>已将 {0} 行导出到 {1}（{2} 字节）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The export had finished before it could be cancelled.</source>
        <translation>取消生效之前，导出已经完成。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancelled: no file was written.</source>
        <translation>已取消：未写入任何文件。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The export failed: {0}</source>
        <translation>导出失败：{0}</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>FactEditDialog</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/fact_dialog.py" line="+85"/>
        <source>Edit {0}</source>
        <translation>编辑 {0}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add a fact</source>
        <translation>添加事实</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Saving stores a new version; the current one stays in the history.</source>
        <translation>保存会存储一个新版本；当前版本保留在历史中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Text (stored as a JSON string)</source>
        <translation>文本（存储为 JSON 字符串）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>state (ongoing)</source>
        <translation>状态（持续）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>event (happened once)</source>
        <translation>事件（发生一次）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Occurred</source>
        <translation>发生时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid from</source>
        <translation>生效自</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <location line="-82"/>
        <source>Save new version</source>
        <translation>保存新版本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>The value is not valid JSON ({0}). Tick &quot;Text&quot; to store it as text.</source>
        <translation>该值不是有效的 JSON（{0}）。勾选“文本”可将其作为文本存储。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter a namespace.</source>
        <translation>请输入命名空间。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The self namespace is written by the agent&apos;s kernel only.</source>
        <translation>self 命名空间只能由智能体内核写入。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter a key.</source>
        <translation>请输入键。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&apos;Valid until&apos; is before &apos;valid from&apos;.</source>
        <translation>“有效至”早于“生效自”。</translation>
    </message>
</context>
<context>
    <name>FactsController</name>
    <message>
        <location filename="../../philont_desktop/facts/controller.py" line="+82"/>
        <source>Loading facts</source>
        <extracomment>After a load, and while the time control moves, the forget pool is read once the tab has rested this long: a worker reading every fact for the pool holds the interpreter the GUI thread paints with, so the rows and plots of a load are painted first, and a drag&apos;s steps only rescore the loaded rows.</extracomment>
        <translation>正在加载事实</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Facts could not be read</source>
        <translation>无法读取事实</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+180"/>
        <source>Forget pool</source>
        <translation>遗忘池</translation>
    </message>
    <message>
        <location line="-158"/>
        <source>Fact history</source>
        <translation>事实历史</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Done: {0}</source>
        <translation>已完成：{0}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Not applied: the fact changed meanwhile</source>
        <translation>未应用：该事实在此期间已被修改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The change was not made</source>
        <translation>未能进行此变更</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Add {0}</source>
        <translation>添加 {0}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Edit {0}</source>
        <translation>编辑 {0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+3"/>
        <source>Pin {0}</source>
        <translation>固定 {0}</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Unpin {0}</source>
        <translation>取消固定 {0}</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+10"/>
        <source>Set tau of {0}</source>
        <translation>设置 {0} 的 τ</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Change confidence of {0}</source>
        <translation>修改 {0} 的置信度</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Forget {0}</source>
        <translation>遗忘 {0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Unforget {0}</source>
        <translation>取消遗忘 {0}</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Nothing to change.</source>
        <translation>没有需要变更的内容。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Preparing the change</source>
        <translation>正在准备变更</translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>Forget %n fact(s)</source>
        <translation>
            <numerusform>遗忘 %n 条事实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Pin %n fact(s)</source>
        <translation>
            <numerusform>固定 %n 条事实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Unpin %n fact(s)</source>
        <translation>
            <numerusform>取消固定 %n 条事实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Move %n fact(s) to {0}</source>
        <translation>
            <numerusform>将 %n 条事实移到 {0}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FactsFilterBar</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/filter_bar.py" line="+24"/>
        <source>Filter keys and values</source>
        <translation>筛选键和值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Column filter: off</source>
        <translation>列筛选：关</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>text, or &lt; 0.05, &gt;= 2026-05-01, 0.2 .. 0.8</source>
        <translation>文本，或 &lt; 0.05、&gt;= 2026-05-01、0.2 .. 0.8</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forgotten</source>
        <translation>已遗忘</translation>
    </message>
</context>
<context>
    <name>FactsModel</name>
    <message>
        <location filename="../../philont_desktop/facts/model.py" line="+133"/>
        <source>Namespace</source>
        <extracomment>The roles ``data()`` answers; a view asks for about seven roles of every cell it paints, so the others are turned away before any other work (a repaint of the table is a thousand calls). The stored columns each view column shows: a damaged one puts the marker in front (core.damage). The text columns sort case-insensitively.</extracomment>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occurred</source>
        <translation>发生时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid from</source>
        <translation>生效自</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last accessed</source>
        <translation>最后访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tau</source>
        <translation>τ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tau from</source>
        <translation>τ 来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Below threshold from</source>
        <translation>低于阈值时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Score (+{0} d)</source>
        <translation>得分（+{0} 天）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Decay time constant in days (∞: never decays)</source>
        <translation>衰减时间常数，单位为天（∞：永不衰减）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where tau comes from: the namespace default, a custom value, or a pin</source>
        <translation>τ 的来源：命名空间默认值、自定义值或固定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>confidence × exp(−age / tau) at the view time; below the threshold = forget candidate</source>
        <translation>查看时间下的 置信度 × exp(−时长 / τ)；低于阈值即为遗忘候选</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>When the score drops below the forget threshold if the fact is not read again</source>
        <translation>如果该事实不再被读取，得分何时跌破遗忘阈值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>active, superseded by a newer version, forgotten, or outside its validity window</source>
        <translation>有效、已被新版本取代、已遗忘，或不在有效期内</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/text.py" line="+10"/>
        <source>active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>outside validity window</source>
        <translation>不在有效期内</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/model.py" line="+61"/>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>namespace default</source>
        <translation>命名空间默认值</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/text.py" line="+7"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/model.py" line="+39"/>
        <source>Not valid JSON; shown as stored:</source>
        <translation>不是有效的 JSON；按存储原样显示：</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>Pinned: never decays and never enters the forget pool</source>
        <translation>已固定：永不衰减，也不会进入遗忘池</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Custom tau {0} (namespace default: {1})</source>
        <translation>自定义 τ {0}（命名空间默认值：{1}）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>user.* facts never decay</source>
        <translation>user.* 事实永不衰减</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default of namespace root &apos;{0}&apos;</source>
        <translation>命名空间根“{0}”的默认值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Score at {0}: {1}</source>
        <translation>{0} 时的得分：{1}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Confidence outside 0…1 as stored</source>
        <translation>存储的置信度超出 0…1 范围</translation>
    </message>
</context>
<context>
    <name>FactsPlots</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/decay_plot.py" line="-62"/>
        <source>{0} active fact(s) with an invalid confidence (NaN, infinite or negative) are not shown; edit their confidence to repair them</source>
        <translation>{0} 条有效事实的置信度无效（NaN、无穷大或负数），未显示；编辑其置信度即可修复</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{0} fact(s) with an invalid confidence (NaN, infinite or negative), drawn at 0 and marked ×; edit their confidence to repair them</source>
        <translation>{0} 条事实的置信度无效（NaN、无穷大或负数），按 0 绘制并标记 ×；编辑其置信度即可修复</translation>
    </message>
</context>
<context>
    <name>FactsTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-7"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/facts/view.py" line="+95"/>
        <source>Decay curves</source>
        <translation>衰减曲线</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Forget pool</source>
        <translation>遗忘池</translation>
    </message>
    <message>
        <location line="+272"/>
        <source>Forget pool ({0})</source>
        <translation>遗忘池（{0}）</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>Loading facts…</source>
        <translation>正在加载事实…</translation>
    </message>
    <message numerus="yes">
        <location line="-56"/>
        <source>%n of the chosen facts are hidden by the current filter.</source>
        <translation>
            <numerusform>所选事实中有 %n 条被当前筛选隐藏。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+40"/>
        <source>The highest-scoring facts; select facts in the table to compare them.</source>
        <translation>分数最高的事实；在表格中选择事实以进行比较。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The highest-scoring facts of {0}; select facts in the table to compare them.</source>
        <translation>{0} 中分数最高的事实；在表格中选择事实以进行比较。</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%Ln active fact(s)</source>
        <translation>
            <numerusform>%Ln 条有效事实</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln row(s) in all</source>
        <translation>
            <numerusform>共 %Ln 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln shown</source>
        <translation>
            <numerusform>显示 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%Ln selected</source>
        <translation>
            <numerusform>已选 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n day(s) ahead</source>
        <translation>
            <numerusform>%n 天后</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scores at {0} ({1})</source>
        <translation>分数时间 {0}（{1}）</translation>
    </message>
</context>
<context>
    <name>FactsTable</name>
    <message numerus="yes">
        <location filename="../../philont_desktop/facts/widgets/table.py" line="+59"/>
        <source>%n month(s) ago</source>
        <extracomment>The columns seen without scrolling: the value takes the width they leave (at least VALUE_MIN).</extracomment>
        <translation>
            <numerusform>%n 个月前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FailureRateChart</name>
    <message>
        <location filename="../../philont_desktop/actions/chart.py" line="+51"/>
        <location line="+29"/>
        <source>Failure rate per tool</source>
        <translation>各工具失败率</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>failed calls, % of calls</source>
        <translation>失败调用占比（%）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Failure rate per tool (the %1 most called of %2)</source>
        <translation>各工具失败率（%2 个工具中调用最多的 %1 个）</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1% (%2 of %3)</source>
        <translation>%1%（%3 次中 %2 次）</translation>
    </message>
</context>
<context>
    <name>FieldNames</name>
    <message>
        <location filename="../../philont_desktop/field_names.py" line="+30"/>
        <location line="+1"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>τ (days)</source>
        <translation>τ（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned</source>
        <translation>固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded by</source>
        <translation>取代它的版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>supersedes</source>
        <translation>它取代的版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>valid from</source>
        <translation>生效时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>valid until</source>
        <translation>失效时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>occurred at</source>
        <translation>发生时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forgotten at</source>
        <translation>遗忘时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last accessed at</source>
        <translation>上次访问时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>created at</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>updated at</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kind of fact</source>
        <translation>事实类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pursuit</source>
        <translation>追求目标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>trigger keywords</source>
        <translation>触发关键词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>recipe</source>
        <translation>配方</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>when to use</source>
        <translation>适用场景</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>verification</source>
        <translation>验证方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool policy</source>
        <translation>工具策略</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>revision history</source>
        <translation>修订历史</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>uses</source>
        <translation>使用次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>successes</source>
        <translation>成功次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failures</source>
        <translation>失败次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failures in a row</source>
        <translation>连续失败次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>times offered</source>
        <translation>提供次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>times matched</source>
        <translation>匹配次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last used at</source>
        <translation>上次使用时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last success at</source>
        <translation>上次成功时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last failure at</source>
        <translation>上次失败时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>from a file</source>
        <translation>来自文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starts at</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ends at</source>
        <translation>结束时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>repeat rule</source>
        <translation>重复规则</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>related fact</source>
        <translation>相关事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>external reference</source>
        <translation>外部引用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>next run at</source>
        <translation>下次运行时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>last run at</source>
        <translation>上次运行时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>action</source>
        <translation>动作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>payload</source>
        <translation>载荷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>created by</source>
        <translation>创建者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused until</source>
        <translation>暂停至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>trigger</source>
        <translation>触发</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>linked skill</source>
        <translation>关联技能</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>calendar events</source>
        <translation>日程事件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scheduled tasks</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>action log</source>
        <translation>动作日志</translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/filter_bar.py" line="+31"/>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Every category</source>
        <translation>所有类别</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every kind</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every layer</source>
        <translation>所有层</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This database and its backups</source>
        <translation>本数据库及其备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This database</source>
        <translation>本数据库</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
</context>
<context>
    <name>FindingDetail</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/widgets.py" line="+133"/>
        <source>Show the rows</source>
        <translation>显示这些行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the rows of this finding in their tab</source>
        <translation>在所属标签页中显示该问题涉及的行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fix…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never merge these</source>
        <translation>永不合并这些</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>They are not duplicates: remember it (outside the database) and stop reporting them</source>
        <translation>它们不是重复项：（在数据库之外）记住这一点，不再报告它们</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Select a finding to see what was measured.</source>
        <translation>选择一个问题以查看测量结果。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No one-step fix: the numbers are for you to judge.</source>
        <translation>没有一步修复：请根据数值自行判断。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(Turn on editing to fix it.)</source>
        <translation>（开启编辑模式以修复。）</translation>
    </message>
</context>
<context>
    <name>FindingsTree</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/tree.py" line="+126"/>
        <source>Finding</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
</context>
<context>
    <name>FixDialog</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/fix_dialog.py" line="+87"/>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>After the fix</source>
        <translation>修复后</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is one change: one Undo reverts all of it.</source>
        <translation>这是一次更改：一次撤销即可全部还原。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Keep:</source>
        <translation>保留：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decay time (τ):</source>
        <translation>衰减时间（τ）：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message numerus="yes">
        <location line="+29"/>
        <source>%n value(s) will change.</source>
        <translation>
            <numerusform>将更改 %n 个值。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to change: the rows no longer need this fix.</source>
        <translation>无需更改：这些行已不再需要此修复。</translation>
    </message>
</context>
<context>
    <name>ForgetPool</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/forget_pool.py" line="+172"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forget selected…</source>
        <translation>遗忘所选…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forget all candidates…</source>
        <translation>遗忘全部候选…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show in table</source>
        <translation>在表格中显示</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>At {0} (+{1} d): {2} forget candidates (score below {3}, not pinned); {4} of them are candidates now.</source>
        <translation>在 {0}（+{1} 天）：{2} 个遗忘候选（得分低于 {3}，未固定）；其中 {4} 个现在就是候选。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{0} forget candidates now: active facts scoring below {1} that are not pinned.</source>
        <translation>当前有 {0} 个遗忘候选：得分低于 {1} 且未固定的有效事实。</translation>
    </message>
</context>
<context>
    <name>FullTextDialog</name>
    <message>
        <location filename="../../philont_desktop/widgets/fulltext.py" line="+92"/>
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Page %1 of %2 · characters %3–%4 of %5</source>
        <translation>第 %1 / %2 页 · 字符 %3–%4，共 %5</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>long lines are broken for display; Copy all copies the text as it is</source>
        <translation>长行已为显示而折断；“全部复制”会复制原文</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Save text</source>
        <translation>保存文本</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Text files (*.txt)</source>
        <translation>文本文件 (*.txt)</translation>
    </message>
</context>
<context>
    <name>GradeDialog</name>
    <message>
        <location filename="../../philont_desktop/skills/dialogs.py" line="+49"/>
        <source>Set the grade of {0} by hand</source>
        <translation>手动设置 {0} 的等级</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>why (required; kept in the audit trail)</source>
        <translation>原因（必填；保存在审计记录中）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New grade</source>
        <translation>新等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set grade</source>
        <translation>设置等级</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Move {0} from {1} to {2}? This overrides the state machine: its counters stay as they are, and later outcomes move it on from the new grade.</source>
        <translation>将 {0} 从{1}改为{2}？这会越过状态机：计数保持不变，之后的结果将从新等级开始继续变化。</translation>
    </message>
</context>
<context>
    <name>HealthTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="+26"/>
        <source>Health</source>
        <translation>健康</translation>
    </message>
</context>
<context>
    <name>HelpDialog</name>
    <message>
        <location filename="../../philont_desktop/help_dialog.py" line="+191"/>
        <source>&amp;Keyboard shortcuts…</source>
        <translation>键盘快捷键(&amp;K)…</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;Find in this tab</source>
        <translation>在此标签页中查找(&amp;F)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>&amp;Go to tab</source>
        <translation>转到标签页(&amp;G)</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+41"/>
        <source>Tab {0}</source>
        <translation>标签页 {0}</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Next tab</source>
        <translation>下一个标签页(&amp;N)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Previous tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Tab {0}: {1}</source>
        <translation>标签页 {0}：{1}</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Find in this tab</source>
        <translation>在此标签页中查找</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the edit</source>
        <translation>保存编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+14"/>
        <source>Delete the selection</source>
        <translation>删除所选内容</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+11"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open / confirm</source>
        <translation>打开 / 确认</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Shortcut of this tab</source>
        <translation>本标签页的快捷键</translation>
    </message>
    <message>
        <location line="+36"/>
        <location line="+6"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Shortcuts of the menus and of the tabs that are open. Keys of a tab work while that tab is shown; greyed entries are not available right now.</source>
        <translation>菜单和已打开标签页的快捷键。标签页的快捷键仅在该标签页显示时有效；灰色条目当前不可用。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Filter…</source>
        <translation>筛选…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location line="-237"/>
        <source>Use with &amp;AI clients (MCP)…</source>
        <translation>在 AI 客户端中使用 (MCP)(&amp;A)…</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/history.py" line="+27"/>
        <source>Select one fact to see its versions side by side.</source>
        <translation>选择一条事实，并排查看其各个版本。</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+43"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occurred</source>
        <translation>发生时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid from</source>
        <translation>生效自</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid until</source>
        <translation>有效至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tau</source>
        <translation>τ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last accessed</source>
        <translation>最后访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No versions.</source>
        <translation>没有版本。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>v{0}</source>
        <translation>v{0}</translation>
    </message>
    <message numerus="yes">
        <location line="-8"/>
        <source>{0}: %n version(s), newest first</source>
        <translation>
            <numerusform>{0}：%n 个版本，最新在前</numerusform>
        </translation>
    </message>
    <message>
        <source>Unreadable</source>
        <translation>无法读取</translation>
    </message>
</context>
<context>
    <name>Humanize</name>
    <message>
        <location filename="../../philont_desktop/humanize.py" line="+46"/>
        <source>⚠ unreadable</source>
        <translation>⚠ 无法读取</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>in %n min</source>
        <translation>
            <numerusform>%n 分钟后</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>in %n h</source>
        <translation>
            <numerusform>%n 小时后</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 小时前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>in %n day(s)</source>
        <translation>
            <numerusform>%n 天后</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>%n 天前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>in %n month(s)</source>
        <translation>
            <numerusform>%n 个月后</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n month(s) ago</source>
        <translation>
            <numerusform>%n 个月前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>in %n year(s)</source>
        <translation>
            <numerusform>%n 年后</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n year(s) ago</source>
        <translation>
            <numerusform>%n 年前</numerusform>
        </translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{0} · {1}</source>
        <translation>{0} · {1}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>{0} years</source>
        <translation>{0} 年</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 year</source>
        <translation>1 年</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <location line="+15"/>
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-13"/>
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{0} days</source>
        <translation>{0} 天</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>τ (tau) is how fast a fact fades while it is not read: its score is confidence × e^(−age / τ), so τ days after it was last read it is down to 37 % of its confidence. ∞: never fades; pinned: never fades and is never forgotten.</source>
        <translation>τ（tau）表示事实在未被读取时衰减的快慢：其分数为 置信度 × e^(−时长 / τ)，因此上次读取 τ 天后，分数降到置信度的 37 %。∞：永不衰减；已固定：永不衰减，也永远不会被遗忘。</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>“{0}”</source>
        <translation>“{0}”</translation>
    </message>
</context>
<context>
    <name>InputsPanel</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/inputs.py" line="+60"/>
        <source>Type a message as the user would send it; the preview follows as you type.</source>
        <extracomment>The panel&apos;s width at 100 % on a 96 dpi screen under which the fields wrap (they need ~910 px in a row).</extracomment>
        <translation>像用户那样输入一条消息；预览会随输入实时更新。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Pick a past message…</source>
        <translation>选择过去的消息…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What did the agent see here? Choose a user message from the timeline: the preview uses only what existed before it.</source>
        <translation>智能体当时看到了什么？从时间线中选择一条用户消息：预览只使用在它之前已存在的内容。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All sessions (ids, comma-separated)</source>
        <translation>所有会话（会话 ID，用逗号分隔）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The conversation the message arrives in: recent messages from other conversations are left out, recalled ones are labelled with where they came from.</source>
        <translation>消息所在的对话：其他对话的近期消息会被略去，召回的消息会标明来自哪里。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>8,000 / 4,000 tokens, 30 recent messages, 10 recall candidates</source>
        <translation>8,000 / 4,000 token，30 条近期消息，10 个召回候选</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This machine (%1)</source>
        <translation>本机（%1）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Home conversation</source>
        <translation>所属对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host OS</source>
        <translation>主机操作系统</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recent tokens</source>
        <translation>近期 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recall tokens</source>
        <translation>召回 token</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recent messages</source>
        <translation>近期消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recall candidates</source>
        <translation>召回候选</translation>
    </message>
    <message numerus="yes">
        <location line="+173"/>
        <source>%n message(s) since %1</source>
        <translation>
            <numerusform>%n 条消息，始于 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ItemActions</name>
    <message>
        <location filename="../../philont_desktop/review/widgets/item_actions.py" line="+74"/>
        <location line="+36"/>
        <source>Turn on editing to act on this change.</source>
        <translation>开启编辑模式后可以处理这项变更。</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Revert to the old value</source>
        <translation>还原为旧值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Correct…</source>
        <translation>更正…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget</source>
        <translation>遗忘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unforget</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Demote</source>
        <translation>降级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deprecate</source>
        <translation>弃用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert this revision</source>
        <translation>撤回此次修订</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forget note</source>
        <translation>遗忘笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unforget note</source>
        <translation>恢复笔记</translation>
    </message>
</context>
<context>
    <name>JobIndicator</name>
    <message>
        <location filename="../../philont_desktop/shell/status.py" line="+78"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Working…</source>
        <translation>处理中…</translation>
    </message>
</context>
<context>
    <name>LadderModel</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/ladder.py" line="+77"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>After it</source>
        <translation>之后</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>recipe revised: {0}</source>
        <translation>流程已修订：{0}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>recipe revised</source>
        <translation>流程已修订</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} (action #{1})</source>
        <translation>{0}（操作 #{1}）</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>back to draft</source>
        <translation>退回草稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} ✓ · {1} ✗ · {2} in a row</source>
        <translation>{0} ✓ · {1} ✗ · 连续 {2}</translation>
    </message>
</context>
<context>
    <name>LadderPanel</name>
    <message>
        <location line="+35"/>
        <source>Show every outcome, not only grade changes</source>
        <translation>显示每次结果，而不仅是等级变化</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>No action in the log is linked to this skill, so there is nothing to replay. Its grade in the database is {0}.</source>
        <translation>操作记录中没有与此技能关联的操作，因此无从重放。它在数据库中的等级是{0}。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>They differ: grades set by hand or by reflection (playbooks, recipe demotions), outcomes recorded without a linked action, and the reflector crediting one failure per failing group are not visible in the action log.</source>
        <translation>两者不同：手动或由反思设置的等级（手册、流程降级）、没有关联操作而记录的结果，以及反思器对每个失败组只记一次失败，这些在操作记录中都看不到。</translation>
    </message>
    <message numerus="yes">
        <location line="-17"/>
        <source>%n linked action(s) in time order, replayed through the state machine from draft with zero counters (each revision of the recipe resets the grade to draft): the replay ends on &lt;b&gt;{0}&lt;/b&gt; with {1} ✓ and {2} ✗. The database says &lt;b&gt;{3}&lt;/b&gt; with {4} ✓ and {5} ✗.</source>
        <translation>
            <numerusform>按时间顺序的 %n 个关联操作，从草稿、计数为零开始经状态机重放（配方的每次修订都会把等级重置为草稿）：重放结束于 &lt;b&gt;{0}&lt;/b&gt;，{1} ✓、{2} ✗。数据库记录为 &lt;b&gt;{3}&lt;/b&gt;，{4} ✓、{5} ✗。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LayerSummary</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/widgets.py" line="-102"/>
        <source>not checked yet</source>
        <translation>尚未检查</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n failure(s)</source>
        <translation>
            <numerusform>%n 个失败</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>ok, %n note(s)</source>
        <translation>
            <numerusform>正常，%n 条提示</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LeftOutTable</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/left_out.py" line="+48"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Section</source>
        <translation>部分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>already recent</source>
        <translation>已在近期中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>Left out: %n message(s)</source>
        <translation>
            <numerusform>略去：%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Nothing was left out.</source>
        <translation>没有遗漏任何内容。</translation>
    </message>
</context>
<context>
    <name>LiveMonitor</name>
    <message>
        <location filename="../../philont_desktop/live.py" line="+88"/>
        <source>Opened as an immutable file: changes are not seen.</source>
        <translation>以不可变文件方式打开：看不到后续更改。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Live refresh is paused.</source>
        <translation>实时刷新已暂停。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The database changed just now.</source>
        <translation>数据库刚刚发生了变化。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Watching the database for changes (every second).</source>
        <translation>正在监视数据库的更改（每秒一次）。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Cannot check the database for changes: {0}</source>
        <translation>无法检查数据库的更改：{0}</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>The database file was replaced on disk: what is shown is the file as it was opened.</source>
        <translation>数据库文件已在磁盘上被替换：此处显示的是打开时的文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The database file was deleted on disk: what is shown is the file as it was opened.</source>
        <translation>数据库文件已在磁盘上被删除：此处显示的是打开时的文件。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The database file was emptied on disk: what is shown is the file as it was opened.</source>
        <translation>数据库文件已在磁盘上被清空：此处显示的是打开时的文件。</translation>
    </message>
</context>
<context>
    <name>LoadingOverlay</name>
    <message>
        <location filename="../../philont_desktop/widgets/loading.py" line="+47"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../philont_desktop/main_window.py" line="+61"/>
        <source>SQLite databases (*.sqlite *.sqlite3 *.db);;All files (*)</source>
        <translation>SQLite 数据库 (*.sqlite *.sqlite3 *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+266"/>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>EDITING</source>
        <translation>编辑中</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No database is open.</source>
        <translation>没有打开数据库。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No memory database exists at &lt;b&gt;{0}&lt;/b&gt; yet.</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; 处还没有记忆数据库。</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>&lt;b&gt;This file cannot be opened.&lt;/b&gt;&lt;br&gt;{0}</source>
        <translation>&lt;b&gt;无法打开此文件。&lt;/b&gt;&lt;br&gt;{0}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Open for editing</source>
        <translation>打开以编辑</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Open (read-only)</source>
        <translation>打开（只读）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Opening {0}…</source>
        <translation>正在打开 {0}…</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+5"/>
        <source>The database cannot be opened</source>
        <translation>无法打开数据库</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Create demo database</source>
        <translation>创建演示数据库</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Create empty database</source>
        <translation>创建空数据库</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Taking a backup before editing…</source>
        <translation>编辑前正在备份…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Backup written to {0}</source>
        <translation>备份已写入 {0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backup now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Writing a backup of {0}…</source>
        <translation>正在写入 {0} 的备份…</translation>
    </message>
    <message>
        <location line="-163"/>
        <source>{0} (demo)</source>
        <translation>{0}（演示）</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Demo database saved to {0}</source>
        <translation>演示数据库已保存到 {0}</translation>
    </message>
</context>
<context>
    <name>McpDialog</name>
    <message>
        <location filename="../../philont_desktop/mcp_dialog.py" line="+72"/>
        <source>Use with AI clients (MCP)</source>
        <extracomment>The command box grows with its wrapped lines up to this many.</extracomment>
        <translation>在 AI 客户端中使用 (MCP)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Other AI applications can use this memory through the Model Context Protocol (MCP): the agent&apos;s eleven memory tools with their exact answers, a preview of the context the agent would be given, and the memory prefix, facts, skills and recent messages as resources.</source>
        <translation>其他 AI 应用可以通过模型上下文协议 (MCP) 使用这份记忆：智能体的十一个记忆工具（回答与智能体完全一致）、智能体将获得的上下文预览，以及作为资源提供的记忆前缀、事实、技能和最近消息。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Allow writing tools (--write)</source>
        <translation>允许写入工具 (--write)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>store_fact, calendar events and reminders are then written after a backup, audited, and can be undone here. Without it the server only reads.</source>
        <translation>此时 store_fact、日历事件和提醒会在备份之后写入、记入审计，并可在此撤销。不勾选时服务器只读。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Copy command</source>
        <translation>复制命令</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy configuration</source>
        <translation>复制配置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Database: {0}</source>
        <translation>数据库：{0}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No database is open: the server uses $MEMORY_DB_PATH or ~/.philont/memory/memory.sqlite.</source>
        <translation>未打开数据库：服务器将使用 $MEMORY_DB_PATH 或 ~/.philont/memory/memory.sqlite。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server needs the mcp package ({0}). It speaks over stdio, as desktop clients start it; add --http 127.0.0.1:8765 to serve streamable HTTP on this computer instead.</source>
        <translation>服务器需要 mcp 软件包（{0}）。它通过 stdio 通信，桌面客户端即以此方式启动它；加上 --http 127.0.0.1:8765 则改为在本机提供可流式 HTTP 服务。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Client configuration (the &quot;mcpServers&quot; entry of the client&apos;s settings file)</source>
        <translation>客户端配置（客户端设置文件中的 &quot;mcpServers&quot; 条目）</translation>
    </message>
</context>
<context>
    <name>MeasureNames</name>
    <message>
        <location filename="../../philont_desktop/health/doctor/measure.py" line="+36"/>
        <source>{0} values</source>
        <extracomment>the value a bar shows, by preference, and the limit it is held against</extracomment>
        <translation>{0} 个值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{0} entries</source>
        <translation>{0} 项</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>cap</source>
        <translation>上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>characters</source>
        <translation>字符数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>characters shown</source>
        <translation>显示的字符数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tokens</source>
        <translation>令牌数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>limit</source>
        <translation>上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>days</source>
        <translation>天数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>live facts</source>
        <translation>有效事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>over the cap</source>
        <translation>超出上限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per month</source>
        <translation>每月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>per day</source>
        <translation>每天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scores</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failures</source>
        <translation>失败次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>average</source>
        <translation>平均</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>busiest day</source>
        <translation>最多的一天</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>keys</source>
        <translation>键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>names</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>grade the actions back</source>
        <translation>操作所支持的等级</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>linked actions</source>
        <translation>关联操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused until</source>
        <translation>暂停至</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>read longest ago</source>
        <translation>最久未读时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shown in the prefix</source>
        <translation>显示在前缀中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>characters cut</source>
        <translation>截掉的字符数</translation>
    </message>
</context>
<context>
    <name>MessageDelegate</name>
    <message>
        <location filename="../../philont_desktop/timeline/widgets/message_card.py" line="+263"/>
        <source>Show more</source>
        <translation>显示更多</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>characters</source>
        <translation>个字符</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+5"/>
        <location line="+2"/>
        <source>Show less</source>
        <translation>收起</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>more characters: double-click for the full text</source>
        <translation>个字符未显示：双击查看全文</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
</context>
<context>
    <name>MessagePicker</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/picker.py" line="+115"/>
        <source>What did the agent see here? Pick a user message</source>
        <translation>智能体当时看到了什么？选择一条用户消息</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Search user messages (3+ characters full-text)</source>
        <translation>搜索用户消息（3 个以上字符进行全文搜索）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Load older</source>
        <translation>加载更早的</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show what the agent saw</source>
        <translation>显示智能体看到的内容</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The messages could not be read: %1</source>
        <translation>无法读取消息：%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The search could not run: %1</source>
        <translation>无法执行搜索：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No user messages found.</source>
        <translation>未找到用户消息。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(more below)</source>
        <translation>（下方还有更多）</translation>
    </message>
    <message numerus="yes">
        <location line="-2"/>
        <source>%n user message(s), newest first</source>
        <translation>
            <numerusform>%n 条用户消息，最新的在前</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessagesModel</name>
    <message>
        <location filename="../../philont_desktop/timeline/model.py" line="+164"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>MissesModel</name>
    <message>
        <location filename="../../philont_desktop/health/recall/widgets/misses.py" line="+57"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Needed</source>
        <translation>所需</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>(no longer in the file)</source>
        <translation>（已不在文件中）</translation>
    </message>
</context>
<context>
    <name>MonthGrid</name>
    <message>
        <location filename="../../philont_desktop/calendar/widgets/month.py" line="+52"/>
        <source>overdue</source>
        <translation>已逾期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message numerus="yes">
        <location line="+115"/>
        <source>+%n more</source>
        <translation>
            <numerusform>还有 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MonthView</name>
    <message>
        <location line="+42"/>
        <location line="+50"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>Previous month</source>
        <translation>上个月</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next month</source>
        <translation>下个月</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>MMMM yyyy</source>
        <translation>yyyy年M月</translation>
    </message>
</context>
<context>
    <name>NamespaceDialog</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/tau_dialog.py" line="+87"/>
        <source>Move to namespace</source>
        <translation>移到命名空间</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Each of the {0} selected facts is stored under the new namespace with the same key and value, and the old one is forgotten (it stays in the history). The decay restarts from the same last read, now with the new namespace&apos;s tau.</source>
        <translation>所选的 {0} 条事实将以相同的键和值存入新的命名空间，旧条目会被遗忘（仍保留在历史中）。衰减从同一个最后读取时间重新开始，改用新命名空间的 τ。</translation>
    </message>
</context>
<context>
    <name>NamespaceTree</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/namespace_tree.py" line="+86"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tau</source>
        <translation>τ</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>All namespaces</source>
        <translation>全部命名空间</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{0}: {1} active facts here, {2} with sub-namespaces, {3} rows in all.</source>
        <translation>{0}：此处有 {1} 条有效事实，含子命名空间共 {2} 条，总计 {3} 行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tau ∞: facts of user.* never decay.</source>
        <translation>τ ∞：user.* 的事实永不衰减。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tau {0} (namespace default).</source>
        <translation>τ {0}（命名空间默认值）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No facts in this namespace itself.</source>
        <translation>此命名空间本身没有事实。</translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <location filename="../../philont_desktop/notes/widgets/editor.py" line="+51"/>
        <source>Save changes</source>
        <translation>保存更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+153"/>
        <source>Forget</source>
        <translation>遗忘</translation>
    </message>
    <message>
        <location line="-139"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Select a note to see it.</source>
        <translation>选择一条笔记进行查看。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Conversation id as stored: %1</source>
        <translation>存储的对话 ID：%1</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Id: %1</source>
        <translation>ID：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Conversation: %1</source>
        <translation>对话：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Created: %1</source>
        <translation>创建时间：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accessed: %1</source>
        <translation>访问时间：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Forgotten: %1</source>
        <translation>遗忘时间：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>This note was changed in the database while you were editing it. Saving will be refused; revert to see the new text.</source>
        <translation>你编辑期间，此笔记已在数据库中被修改。保存将被拒绝；请还原以查看新的文本。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Unforget</source>
        <translation>取消遗忘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Turn on editing mode to change, forget or add notes.</source>
        <translation>开启编辑模式后才能修改、遗忘或添加笔记。</translation>
    </message>
</context>
<context>
    <name>NotesController</name>
    <message>
        <location filename="../../philont_desktop/notes/controller.py" line="+35"/>
        <source>Notes could not be read</source>
        <translation>无法读取笔记</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>Edit note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forget note</source>
        <translation>遗忘笔记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unforget note</source>
        <translation>取消遗忘笔记</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Add note</source>
        <translation>添加笔记</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The note was not changed</source>
        <translation>笔记未被修改</translation>
    </message>
</context>
<context>
    <name>NotesFilterBar</name>
    <message>
        <location filename="../../philont_desktop/notes/widgets/filter_bar.py" line="+33"/>
        <source>Search notes (the agent&apos;s search: 3+ characters full-text)</source>
        <translation>搜索笔记（与智能体的搜索相同：3 个以上字符进行全文搜索）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hide forgotten</source>
        <translation>隐藏已遗忘</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Newest first</source>
        <translation>最新的在前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Most important first</source>
        <translation>最重要的在前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add note…</source>
        <translation>添加笔记…</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Search results come as the agent&apos;s search orders them: most important first</source>
        <translation>搜索结果按智能体搜索的顺序排列：最重要的在前</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>1 note found</source>
        <translation>找到 1 条笔记</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 notes found</source>
        <translation>找到 %1 条笔记</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>1 note</source>
        <translation>1 条笔记</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>%1 notes</source>
        <translation>%1 条笔记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1+ notes</source>
        <translation>%1+ 条笔记</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>%1 notes · %2 shown, more as you scroll</source>
        <translation>%1 条笔记 · 已显示 %2 条，滚动加载更多</translation>
    </message>
</context>
<context>
    <name>NotesModel</name>
    <message>
        <location filename="../../philont_desktop/notes/model.py" line="+84"/>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accessed</source>
        <translation>访问时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not forgotten</source>
        <translation>未遗忘</translation>
    </message>
</context>
<context>
    <name>NotesTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-30"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/notes/view.py" line="+208"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The note you were editing has unsaved changes. Discard them?</source>
        <translation>正在编辑的笔记有未保存的更改。要放弃这些更改吗？</translation>
    </message>
</context>
<context>
    <name>OverviewPanel</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/overview.py" line="+113"/>
        <source>Why this grade</source>
        <translation>为何处于此等级</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What would move it next</source>
        <translation>什么会改变它的等级</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The database holds the unknown grade {0}; it is read as draft.</source>
        <translation>数据库中存有未知等级 {0}；按草稿处理。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Counters</source>
        <translation>计数</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Uses</source>
        <translation>使用次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successes</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Consecutive failures</source>
        <translation>连续失败次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Offered in the skill index</source>
        <translation>在技能索引中提供的次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Matched when offered</source>
        <translation>提供时匹配的次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last used</source>
        <translation>上次使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last success</source>
        <translation>上次成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last failure</source>
        <translation>上次失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revisions kept</source>
        <translation>保留的修订数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Linked actions</source>
        <translation>关联操作</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>When to use</source>
        <translation>使用时机</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+2"/>
        <source>Trigger keywords</source>
        <translation>触发关键词</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Action template</source>
        <translation>操作模板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none: an advisory lesson, not a callable recipe</source>
        <translation>无：建议性的经验，不是可调用的流程</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tool policy</source>
        <translation>工具策略</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(installed from disk)</source>
        <translation>（从磁盘安装）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unreadable JSON in this row: {0}</source>
        <translation>此行中有无法读取的 JSON：{0}</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>{0} of {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the agent proposes no further repair</source>
        <translation>智能体不再提出修复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repair attempts by the agent</source>
        <translation>智能体的修复尝试</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message numerus="yes">
        <location line="+47"/>
        <source>A replay of its %n linked action(s) from draft also ends on {0}.</source>
        <translation>
            <numerusform>从草稿重放其 %n 个关联操作，同样结束于{0}。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>A replay of its %n linked action(s) from draft ends on {0}, but the database says {1}: see Ladder history.</source>
        <translation>
            <numerusform>从草稿重放其 %n 个关联操作结束于{0}，但数据库记录为{1}：见“等级历史”。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OverviewPlot</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/overview.py" line="+97"/>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>days since last read (or since stored)</source>
        <translation>距最后读取（或存储）的天数</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Drag: select a rectangle · Click: one point · Ctrl/Shift: add · Wheel: zoom · Double-click: fit</source>
        <translation>拖动：框选 · 单击：选一个点 · Ctrl/Shift：追加 · 滚轮：缩放 · 双击：适应窗口</translation>
    </message>
</context>
<context>
    <name>PlainText</name>
    <message numerus="yes">
        <location filename="../../philont_desktop/widgets/plain.py" line="+51"/>
        <source>(%n more character(s))</source>
        <extracomment>Characters of stored text a label or detail pane shows (the rest is summarised). Characters of stored text a tooltip shows. Stored bytes a tooltip spells in hex. The marker in front of a damaged value.</extracomment>
        <translation>
            <numerusform>（另有 %n 个字符）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1: not valid UTF-8 (%2 bytes); the unreadable bytes are shown as �</source>
        <translation>%1：不是有效的 UTF-8（%2 字节）；无法读取的字节显示为 �</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: binary data (%2 bytes) where text belongs</source>
        <translation>%1：此处应为文本，却是二进制数据（%2 字节）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: empty (NULL), though it must have a value</source>
        <translation>%1：为空（NULL），但此列必须有值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: a number where text belongs</source>
        <translation>%1：此处应为文本，却是数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: not a number</source>
        <translation>%1：不是数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: not a finite number</source>
        <translation>%1：不是有限数字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: not a time</source>
        <translation>%1：不是时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: beyond the range it can hold</source>
        <translation>%1：超出可容纳的范围</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: not valid JSON (shown as stored)</source>
        <translation>%1：不是有效的 JSON（按存储原样显示）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: JSON nested too deep to read (shown as stored)</source>
        <translation>%1：JSON 嵌套过深，无法读取（按存储原样显示）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: JSON of the wrong kind</source>
        <translation>%1：JSON 类型不对</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>stored bytes: %1</source>
        <translation>存储的字节：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>stored: %1</source>
        <translation>存储的值：%1</translation>
    </message>
</context>
<context>
    <name>PoolModel</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/forget_pool.py" line="-170"/>
        <source>Fact</source>
        <extracomment>The stored columns each pool column shows (a damaged one is marked).</extracomment>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Below threshold from</source>
        <translation>低于阈值时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last accessed</source>
        <translation>最后访问</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tau</source>
        <translation>τ</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Not a candidate yet: it falls below the threshold at the chosen future time</source>
        <translation>目前还不是候选：在所选的未来时间会跌破阈值</translation>
    </message>
</context>
<context>
    <name>PreviewRenderer</name>
    <message>
        <location filename="../../philont_desktop/context_tab/render.py" line="+125"/>
        <source>before message #%1</source>
        <translation>消息 #%1 之前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>before %1</source>
        <translation>%1 之前</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rebuilt as of %1 (%2) from what the database records. What cannot be rewound:</source>
        <translation>根据数据库的记录重建为 %1（%2）时的状态。无法回溯的部分：</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Memory prefix</source>
        <translation>记忆前缀</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The prefix is over 40,000 characters (%1): the agent gets it truncated.</source>
        <translation>前缀超过 40,000 个字符（%1）：智能体收到的是截断后的版本。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1 chars · %2 tokens</source>
        <translation>%1 字符 · %2 token</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not reproduced here (only the agent&apos;s running server fills them): %1.</source>
        <translation>此处未重现（只有智能体运行中的服务器才会填写）：%1。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Recall trigger hit (%1): “%2”</source>
        <translation>命中召回触发（%1）：“%2”</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server appends this to the system message:</source>
        <translation>服务器会把以下内容追加到系统消息中：</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+7"/>
        <source>Recall trigger</source>
        <translation>召回触发</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>no hit: nothing is injected</source>
        <translation>未命中：不注入任何内容</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>searching…</source>
        <translation>搜索中…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Recalled messages</source>
        <translation>召回的消息</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Searching the timeline for recall candidates…</source>
        <translation>正在时间线中搜索召回候选…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Recent messages</source>
        <translation>近期消息</translation>
    </message>
    <message>
        <location line="-126"/>
        <source>This turn</source>
        <extracomment>A message longer than this (characters or lines) shows its beginning and a &quot;show the full text&quot; link: laying out a long unbroken paragraph takes time that grows faster than its length (4,000 characters in one paragraph cost about 50 ms, 1,500 a few).</extracomment>
        <translation>本轮</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the message being answered</source>
        <translation>正在回复的消息</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>(stored as %1)</source>
        <translation>（存储为 %1）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>this turn</source>
        <translation>本轮</translation>
    </message>
    <message>
        <location line="-67"/>
        <location line="+23"/>
        <location line="+47"/>
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>… %1 more characters: show the full text</source>
        <translation>… 还有 %1 个字符：显示全文</translation>
    </message>
    <message>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <source>Collapse all</source>
        <translation>全部收起</translation>
    </message>
    <message>
        <source>No recent messages.</source>
        <translation>没有近期消息。</translation>
    </message>
    <message numerus="yes">
        <location line="-150"/>
        <source>%n section(s)</source>
        <translation>
            <numerusform>%n 个部分</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+73"/>
        <location line="+23"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <source>Raw: the text as stored</source>
        <translation>原文：存储的文本</translation>
    </message>
</context>
<context>
    <name>PrivacyPage</name>
    <message>
        <location filename="../../philont_desktop/health/pages.py" line="+6"/>
        <source>Privacy</source>
        <translation>隐私</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/privacy/page.py" line="+168"/>
        <source>Scanning for secrets</source>
        <translation>正在扫描机密</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Scanning…</source>
        <translation>正在扫描…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The scan was cancelled.</source>
        <translation>扫描已取消。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The scan failed: {0}</source>
        <translation>扫描失败：{0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The database changed since: Scan again to see it as it is now.</source>
        <translation>此后数据库已发生变化：重新扫描以查看当前状态。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not scanned yet.</source>
        <translation>尚未扫描。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Reading the text around a finding</source>
        <translation>正在读取发现周围的文本</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Keeping findings on the allow-list</source>
        <translation>正在把发现放入允许列表</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The allow-list was not changed</source>
        <translation>允许列表未更改</translation>
    </message>
    <message>
        <location line="+16"/>
        <location line="+24"/>
        <source>Turn on editing to purge: nothing was changed.</source>
        <translation>打开编辑模式才能清除：未做任何更改。</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Listing the files a purge rewrites</source>
        <translation>正在列出清除将重写的文件</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Purging needs the main window, which closes and reopens the database: nothing was changed.</source>
        <translation>清除需要主窗口关闭并重新打开数据库：未做任何更改。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Nothing was purged: {0}</source>
        <translation>未清除任何内容：{0}</translation>
    </message>
</context>
<context>
    <name>PrivacyText</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/texts.py" line="-135"/>
        <source>Secret</source>
        <translation>机密</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Personal data</source>
        <translation>个人数据</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Planted instruction</source>
        <translation>植入的指令</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>OpenAI API key</source>
        <translation>OpenAI API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Anthropic API key</source>
        <translation>Anthropic API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AWS access key</source>
        <translation>AWS 访问密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>AWS secret key</source>
        <translation>AWS 私密访问密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GitHub token</source>
        <translation>GitHub 令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Google API key</source>
        <translation>Google API 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Slack token</source>
        <translation>Slack 令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stripe key</source>
        <translation>Stripe 密钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON Web Token</source>
        <translation>JSON Web 令牌（JWT）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Private key</source>
        <translation>私钥</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection string with a password</source>
        <translation>含密码的连接字符串</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Token next to a key word</source>
        <translation>关键词旁的令牌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E-mail address</source>
        <translation>电子邮件地址</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone number</source>
        <translation>电话号码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chinese resident ID number</source>
        <translation>居民身份证号码</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Card number</source>
        <translation>银行卡号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IBAN</source>
        <translation>IBAN 国际银行账号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instruction to ignore earlier instructions</source>
        <translation>要求忽略先前指令的指令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instruction to take another role</source>
        <translation>要求扮演其他角色的指令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Talk of the system prompt</source>
        <translation>涉及系统提示词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instruction to hide something from the user</source>
        <translation>要求对用户隐瞒的指令</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skill revisions</source>
        <translation>技能修订</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Audit trail</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Redact the span</source>
        <translation>涂改该片段</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete the row</source>
        <translation>删除整行</translation>
    </message>
</context>
<context>
    <name>PurgeDialog</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/purge_dialog.py" line="+41"/>
        <source>Purge for good</source>
        <translation>彻底清除</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n finding(s) will be purged: {mode}.</source>
        <translation>
            <numerusform>将清除 %n 个发现：{mode}。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>These files will be rewritten:</source>
        <translation>将重写这些文件：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This cannot be undone: the values are removed from the database, its write-ahead log, free pages, the full-text index, the audit trail and every backup listed, and no backup is taken first (it would keep them). The agent&apos;s backups are rewritten in place, never deleted.</source>
        <translation>此操作无法撤销：这些值将从数据库、其预写日志、空闲页、全文索引、审计记录以及所列的每个备份中移除，且事先不会做备份（备份会保留它们）。智能体的备份会原地重写，绝不会被删除。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>These files also hold a purged value and are not rewritten:</source>
        <translation>以下文件也包含被清除的值，但不会被重写：</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Purge</source>
        <translation>清除</translation>
    </message>
</context>
<context>
    <name>RecallCharts</name>
    <message>
        <location filename="../../philont_desktop/health/recall/widgets/charts.py" line="+50"/>
        <location line="+2"/>
        <source>hit rate, %</source>
        <translation>命中率，%</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>missed turns</source>
        <translation>未命中的轮次</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Hit rate by month</source>
        <translation>每月命中率</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Hit rate by month (the last %n months)</source>
        <translation>
            <numerusform>每月命中率（最近 %n 个月）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 of %2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Misses by cause</source>
        <translation>未命中的原因</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Strategies compared</source>
        <translation>策略对比</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 · %2 tokens per hit</source>
        <translation>%1 · 每次命中 %2 个 token</translation>
    </message>
</context>
<context>
    <name>RecallPage</name>
    <message>
        <location filename="../../philont_desktop/health/pages.py" line="-3"/>
        <source>Recall</source>
        <translation>召回</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/health/recall/page.py" line="+111"/>
        <source>Reading the saved result…</source>
        <translation>正在读取已保存的结果…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Reading the saved recall replay</source>
        <translation>读取已保存的召回重放</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Replaying every user turn: no result is saved for this file yet…</source>
        <translation>正在重放每个用户轮次：此文件还没有保存的结果…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Looking for user turns written since the saved result…</source>
        <translation>正在查找保存结果之后写入的用户轮次…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Replaying recall</source>
        <translation>重放召回</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Cancelled: showing the result saved before. Update replays what is missing.</source>
        <translation>已取消：显示之前保存的结果。“更新”会重放缺少的部分。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The replay failed: %1</source>
        <translation>重放失败：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>No turn needed an earlier message (by the estimate): nothing could be missed.</source>
        <translation>（按估计）没有轮次需要早先的消息：不可能有未命中。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No missed turns: recall brought back a needed message every time.</source>
        <translation>没有未命中的轮次：每次召回都找回了所需的消息。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Computing what the agent saw</source>
        <translation>计算智能体当时所见</translation>
    </message>
</context>
<context>
    <name>RecallRenderer</name>
    <message>
        <location filename="../../philont_desktop/context_tab/render_recall.py" line="+54"/>
        <source>Recall: searching the timeline…</source>
        <translation>召回：正在搜索时间线…</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>Recall: %n message(s) recalled</source>
        <translation>
            <numerusform>召回：召回了 %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recall: nothing recalled</source>
        <translation>召回：什么也没有召回</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No recall trigger: nothing is added to the system message.</source>
        <translation>没有命中召回触发词：系统消息不追加任何内容。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>⚠ Recall trigger hit (%1): “%2”. The agent is told to call recall_sessions.</source>
        <translation>⚠ 命中召回触发词（%1）：“%2”。智能体会被要求调用 recall_sessions。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The agent&apos;s search received</source>
        <translation>智能体的搜索收到</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>After removing &apos; &quot; * ( )</source>
        <translation>去掉 &apos; &quot; * ( ) 之后</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Full-text query</source>
        <translation>全文查询</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Counting each word&apos;s messages and the keyword query…</source>
        <translation>正在统计每个词的消息数和关键词查询…</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+3"/>
        <source>Each word alone</source>
        <translation>每个词单独</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>failed (SQLite: %1)</source>
        <translation>失败（SQLite：%1）</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1+ messages</source>
        <translation>%1+ 条消息</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n message(s)</source>
        <translation>
            <numerusform>%n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>What a keyword query would recall — not what the agent does</source>
        <translation>关键词查询会召回什么 —— 这不是智能体的做法</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The agent searches for the whole message. A keyword search (what recall_sessions is asked for when the agent calls it) would use the message&apos;s key words; shown here to see the gap.</source>
        <translation>智能体搜索的是整条消息。关键词搜索（智能体调用 recall_sessions 时要求的方式）会使用消息中的关键词；列在这里以便看出差距。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>rule %1</source>
        <translation>规则 %1</translation>
    </message>
    <message>
        <source>Why, word by word ↓</source>
        <translation>为什么：逐词说明 ↓</translation>
    </message>
    <message>
        <source>Keyword query</source>
        <translation>关键词查询</translation>
    </message>
    <message>
        <source>and %n more</source>
        <translation>另有 %n 条</translation>
    </message>
</context>
<context>
    <name>RecipeDialog</name>
    <message>
        <location filename="../../philont_desktop/skills/dialogs.py" line="-183"/>
        <source>Revise recipe {0}</source>
        <translation>修订流程 {0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The current version is kept in the revision history with your reason. Revising resets the grade to draft; the counters are kept.</source>
        <translation>当前版本会连同你填写的原因保留在修订历史中。修订会把等级重置为草稿；计数保持不变。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>none: make it an advisory lesson</source>
        <translation>无：改为建议性的经验</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>tool names, separated by commas</source>
        <translation>工具名称，用逗号分隔</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>why this rewrite (required)</source>
        <translation>为何重写（必填）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Action template</source>
        <translation>操作模板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool policy</source>
        <translation>工具策略</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Save as new version</source>
        <translation>保存为新版本</translation>
    </message>
</context>
<context>
    <name>RepeatWords</name>
    <message numerus="yes">
        <location filename="../../philont_desktop/calendar/words.py" line="-32"/>
        <source>every %n week(s)</source>
        <translation>
            <numerusform>每 %n 周</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>every %n day(s)</source>
        <translation>
            <numerusform>每 %n 天</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>every %n hour(s)</source>
        <translation>
            <numerusform>每 %n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>every %n minute(s)</source>
        <translation>
            <numerusform>每 %n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>every %n second(s)</source>
        <translation>
            <numerusform>每 %n 秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>every %n millisecond(s)</source>
        <translation>
            <numerusform>每 %n 毫秒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+35"/>
        <source>every %n week(s) on {0}</source>
        <translation>
            <numerusform>每 %n 周的{0}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>{0}, %n time(s)</source>
        <translation>
            <numerusform>{0}，共 %n 次</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReplayProgress</name>
    <message>
        <location filename="../../philont_desktop/health/recall/widgets/progress.py" line="+26"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Replay the user turns written since the saved result</source>
        <translation>重放保存结果之后写入的用户轮次</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Replaying user turns: %1 of %2…</source>
        <translation>正在重放用户轮次：%1 / %2…</translation>
    </message>
</context>
<context>
    <name>ResultPane</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/result_pane.py" line="+21"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ReviewBar</name>
    <message>
        <location filename="../../philont_desktop/review/widgets/review_bar.py" line="+34"/>
        <source>Looks right</source>
        <translation>确认无误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mark the selected changes as reviewed</source>
        <translation>将选中的变更标记为已审阅</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark all reviewed</source>
        <translation>全部标记为已审阅</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The next review starts from here</source>
        <translation>下次审阅从这里开始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undo mark</source>
        <translation>撤销标记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Put the review mark back where it was: the changes return</source>
        <translation>把审阅标记恢复到原处：这些变更会重新列出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hide reviewed</source>
        <translation>隐藏已审阅</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Markdown digest…</source>
        <translation>Markdown 摘要…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Looking for changes…</source>
        <translation>正在查找变更…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{0} changes, {1} reviewed</source>
        <translation>{0} 项变更，已审阅 {1} 项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>, {0} new</source>
        <translation>，{0} 项新增</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Undo mark (%n change(s))</source>
        <translation>
            <numerusform>撤销标记（%n 项变更）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewController</name>
    <message>
        <location filename="../../philont_desktop/review/controller.py" line="+147"/>
        <source>Finding changes</source>
        <extracomment>One grade down, for &quot;Demote&quot;.</extracomment>
        <translation>正在查找变更</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Comparing with a backup</source>
        <translation>正在与备份比较</translation>
    </message>
    <message numerus="yes">
        <location line="+75"/>
        <source>Marked %n change(s) reviewed (Undo in the review bar brings them back)</source>
        <translation>
            <numerusform>已将 %n 项变更标记为已审阅（审阅栏中的“撤销标记”可恢复）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>Undone: marked %n change(s) reviewed</source>
        <translation>
            <numerusform>已撤销：将 %n 项变更标记为已审阅</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The review mark could not be saved</source>
        <translation>无法保存审阅标记</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+11"/>
        <location line="+32"/>
        <location line="+14"/>
        <source>This change cannot be made</source>
        <translation>无法进行此更改</translation>
    </message>
    <message>
        <location line="-54"/>
        <source>Nothing was changed</source>
        <translation>未做任何更改</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The old value is not valid JSON.</source>
        <translation>旧值不是有效的 JSON。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Revert fact</source>
        <translation>还原事实</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Correct fact</source>
        <translation>更正事实</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Pin fact</source>
        <translation>固定事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unpin fact</source>
        <translation>取消固定事实</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forget fact</source>
        <translation>遗忘事实</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unforget fact</source>
        <translation>恢复事实</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Forget note</source>
        <translation>遗忘笔记</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unforget note</source>
        <translation>恢复笔记</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+14"/>
        <source>The skill is gone.</source>
        <translation>该技能已不存在。</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Set skill grade</source>
        <translation>设置技能等级</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Revert recipe revision</source>
        <translation>撤回配方修订</translation>
    </message>
</context>
<context>
    <name>ReviewDetail</name>
    <message>
        <location filename="../../philont_desktop/review/widgets/detail.py" line="+69"/>
        <source>pinned: never decays</source>
        <translation>已固定：永不衰减</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>never decays</source>
        <translation>永不衰减</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>τ = {0}</source>
        <translation>τ = {0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>forgotten</source>
        <translation>已遗忘</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Action template</source>
        <translation>动作模板</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool policy</source>
        <translation>工具策略</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decay</source>
        <translation>衰减</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+10"/>
        <source>Created</source>
        <translation>创建于</translation>
    </message>
    <message>
        <location line="-9"/>
        <location line="+10"/>
        <source>Forgotten</source>
        <translation>遗忘于</translation>
    </message>
    <message>
        <location line="-6"/>
        <location line="+17"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
</context>
<context>
    <name>ReviewDetailPane</name>
    <message>
        <location line="+73"/>
        <source>Show in the Timeline</source>
        <translation>在时间线中显示</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Before and after</source>
        <translation>前后对比</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decay</source>
        <translation>衰减</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ladder</source>
        <translation>等级阶梯</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Messages around</source>
        <translation>相关消息</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Select a change to see it in full.</source>
        <translation>选择一项变更以查看详情。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>made in this app by {0}</source>
        <translation>由 {0} 在本应用中修改</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Before (did not exist)</source>
        <translation>之前（不存在）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>After (gone)</source>
        <translation>之后（已不存在）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>revision</source>
        <translation>修订</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>success</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>failure</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>No messages near this change.</source>
        <translation>这项变更附近没有消息。</translation>
    </message>
</context>
<context>
    <name>ReviewTab</name>
    <message numerus="yes">
        <location filename="../../philont_desktop/review/view.py" line="+331"/>
        <source>Mark all %n change(s) as reviewed? They leave the list and the next review starts after them. You can undo this with “Undo mark” in the review bar.</source>
        <extracomment>Below this width of the change list (at 100 % on 96 dpi; it grows with the text) the &quot;Time&quot; column is hidden, below the second the &quot;Source&quot; column too: the summaries keep the room (both are in the rows&apos; tooltips and the detail pane). Below this width of the tab (at 100 % on 96 dpi: 1120 px at 200 %) the detail pane goes under the list rather than beside it, so that the summaries have the tab&apos;s whole width.</extracomment>
        <translation>
            <numerusform>将全部 %n 项变更标记为已审阅？它们会从列表中移除，下次审阅从它们之后开始。可以用审阅栏中的“撤销标记”撤销。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+1"/>
        <source>Mark all reviewed</source>
        <translation>全部标记为已审阅</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Correct fact</source>
        <translation>更正事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The correct value (JSON):</source>
        <translation>正确的值（JSON）：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Why (kept in the audit trail):</source>
        <translation>原因（记入审计记录）：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Compared with {0} ({1})</source>
        <translation>与 {0} 比较（{1}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes since {0}</source>
        <translation>自 {0} 以来的变更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Memory review, {0}</source>
        <translation>记忆审阅，{0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>time unknown</source>
        <translation>时间未知</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reviewed</source>
        <translation>已审阅</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown（*.md）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>JSON (*.json)</source>
        <translation>JSON（*.json）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export the review</source>
        <translation>导出审阅</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Exporting the review</source>
        <translation>正在导出审阅</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Review exported to {0}</source>
        <translation>审阅已导出到 {0}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The review could not be exported</source>
        <translation>无法导出审阅</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="+23"/>
        <source>Review</source>
        <translation>审阅</translation>
    </message>
</context>
<context>
    <name>ReviewText</name>
    <message>
        <location filename="../../philont_desktop/review/texts.py" line="+39"/>
        <source>the namespace&apos;s default</source>
        <translation>命名空间默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{0} days</source>
        <translation>{0} 天</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>new fact {name} = {value}</source>
        <translation>新事实 {name} = {value}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name}: {old} → {new} (confidence {c0} → {c1})</source>
        <translation>{name}：{old} → {new}（置信度 {c0} → {c1}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>forgot {name} = {value}</source>
        <translation>遗忘了 {name} = {value}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unforgot {name} = {value}</source>
        <translation>恢复了 {name} = {value}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>pinned {name}</source>
        <translation>固定了 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unpinned {name}</source>
        <translation>取消固定 {name}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{name}: decay τ {t0} → {t1}</source>
        <translation>{name}：衰减 τ {t0} → {t1}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} fell below the forget threshold {threshold} by decay</source>
        <translation>{name} 因衰减低于遗忘阈值 {threshold}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name}: {fields} changed in place</source>
        <translation>{name}：{fields} 被原地修改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} = {value}: this version is gone</source>
        <translation>{name} = {value}：此版本已不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>new skill {name} ({grade})</source>
        <translation>新技能 {name}（{grade}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name}: {path}</source>
        <translation>{name}：{path}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} became deprecated (was {grade})</source>
        <translation>{name} 已被弃用（原为 {grade}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name}: recipe revised ({reason})</source>
        <translation>{name}：配方已修订（{reason}）</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>no reason given</source>
        <translation>未说明原因</translation>
    </message>
    <message>
        <location line="-82"/>
        <source>{name}: successes +{successes}, failures +{failures}</source>
        <translation>{name}：成功 +{successes}，失败 +{failures}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name} used up its repair attempts ({attempts} of {limit})</source>
        <translation>{name} 已用完修复次数（{attempts}/{limit}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{name}: {fields} changed</source>
        <translation>{name}：{fields} 已修改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>skill {name} is gone</source>
        <translation>技能 {name} 已不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>new note: {preview}</source>
        <translation>新笔记：{preview}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note edited ({fields}): {preview}</source>
        <translation>笔记已编辑（{fields}）：{preview}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>forgot note: {preview}</source>
        <translation>遗忘了笔记：{preview}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unforgot note: {preview}</source>
        <translation>恢复了笔记：{preview}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>note is gone: {preview}</source>
        <translation>笔记已不存在：{preview}</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>{conversation}: %n message(s), {user} from the user</source>
        <translation>
            <numerusform>{conversation}：%n 条消息，其中 {user} 条来自用户</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{changed} messages of the baseline changed and {missing} are gone</source>
        <translation>基准中有 {changed} 条消息被修改，{missing} 条已不存在</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>{tool}: %n call(s), {failures} failed</source>
        <translation>
            <numerusform>{tool}：调用 %n 次，失败 {failures} 次</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{tool} started failing: {failures} of {calls} calls failed (none of {previous_calls} before)</source>
        <translation>{tool} 开始失败：{calls} 次调用中失败 {failures} 次（此前 {previous_calls} 次均未失败）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{changed} actions of the baseline changed and {missing} are gone</source>
        <translation>基准中有 {changed} 条动作被修改，{missing} 条已不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>new event {title}</source>
        <translation>新日程 {title}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>event {title}: {fields} changed</source>
        <translation>日程 {title}：{fields} 已修改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>event {title} is gone</source>
        <translation>日程 {title} 已不存在</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>new task {name} ({action_type})</source>
        <translation>新任务 {name}（{action_type}）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>task {name}: {fields} changed</source>
        <translation>任务 {name}：{fields} 已修改</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>task {name} paused after {failures} failures in a row</source>
        <translation>任务 {name} 连续失败 {failures} 次后已暂停</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>task {name} is gone</source>
        <translation>任务 {name} 已不存在</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>the agent&apos;s repair after failures</source>
        <translation>智能体在失败后的修复</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>A time baseline sees only changes the data dates: pin and τ changes, unforgetting, edited notes, events and tasks show only when made in this app. Compare with a backup to see every change.</source>
        <translation>以时间为基准只能看到数据中带有时间的变更：固定与 τ 的修改、恢复遗忘、编辑过的笔记、日程和任务，只有在本应用中进行时才会显示。与备份比较可以看到全部变更。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The baseline is newer than what it is compared with.</source>
        <translation>基准比被比较的对象更新。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{table}: columns only on one side are compared as empty there.</source>
        <translation>{table}：只在一侧存在的列在另一侧按空值比较。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{table} is missing on one side.</source>
        <translation>{table} 在其中一侧不存在。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The backup&apos;s name carries no time; its file&apos;s modification time is used.</source>
        <translation>备份文件名中没有时间，改用文件的修改时间。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The two files share only {shared} of their facts, skills, notes, events and tasks</source>
        <translation>两个文件的事实、技能、笔记、事件和任务中仅有 {shared} 条相同</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The two files share none of their facts, skills, notes, events and tasks</source>
        <translation>两个文件的事实、技能、笔记、事件和任务没有任何一条相同</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> ({before} and {after} rows): they may be the memories of different agents, and then every row shows as a change.</source>
        <translation>（分别为 {before} 条和 {after} 条）：它们可能是不同智能体的记忆，这样每一行都会显示为变更。</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Conversations</source>
        <translation>对话</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calendar</source>
        <translation>日历</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduled tasks</source>
        <translation>计划任务</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>time derived from other data (the action log, the decay model)</source>
        <translation>时间由其他数据推算（动作日志、衰减模型）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>changed at an unknown time after the baseline</source>
        <translation>在基准之后的未知时间被修改</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>time recorded with the change</source>
        <translation>时间随变更一同记录</translation>
    </message>
    <message>
        <location line="-256"/>
        <source>playbook</source>
        <translation>手册</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>stable</source>
        <translation>稳定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>deprecated</source>
        <translation>已弃用</translation>
    </message>
</context>
<context>
    <name>RevisionsPanel</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/revisions.py" line="+63"/>
        <source>Restore this version…</source>
        <extracomment>The panel&apos;s width at 100 % under which the diff goes under the versions table.</extracomment>
        <translation>恢复此版本…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>with</source>
        <translation>与</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successes</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In effect</source>
        <translation>生效期间</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Replaced because</source>
        <translation>替换原因</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Version {0} (current)</source>
        <translation>版本 {0}（当前）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version 1 (original)</source>
        <translation>版本 1（原始）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Version {0}</source>
        <translation>版本 {0}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Never revised: only the current version exists.</source>
        <translation>从未修订：只有当前版本。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not a recipe (no verification): its rewrites are not versioned.</source>
        <translation>不是流程（没有验证）：其改写不做版本管理。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>creation</source>
        <translation>创建</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+28"/>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Action template</source>
        <translation>操作模板</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verification</source>
        <translation>验证</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Tool policy</source>
        <translation>工具策略</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>The agent&apos;s own rewrites: {0}.</source>
        <translation>智能体自己的改写：{0}。</translation>
    </message>
    <message numerus="yes">
        <location line="-6"/>
        <source>%n earlier version(s) kept. Successes and failures are the linked actions recorded while each version was current.</source>
        <translation>
            <numerusform>保留了 %n 个早期版本。成功与失败是各版本生效期间记录的关联操作。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ScanBar</name>
    <message>
        <location filename="../../philont_desktop/health/privacy/widgets/scan_bar.py" line="+22"/>
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Look for secrets, personal data and planted instructions</source>
        <translation>查找机密、个人数据和植入的指令</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Include backups</source>
        <translation>包括备份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Scan every backup of this database in backups/ too</source>
        <translation>同时扫描 backups/ 中本数据库的每个备份</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>SchedulesModel</name>
    <message>
        <location filename="../../philont_desktop/calendar/model.py" line="+31"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next run</source>
        <translation>下次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeats</source>
        <translation>重复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last run</source>
        <translation>上次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>overdue</source>
        <translation>已逾期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>UTC: {0}</source>
        <translation>UTC：{0}</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>paused until {0}</source>
        <translation>暂停至 {0}</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Was paused until {0}.</source>
        <translation>曾暂停至 {0}。</translation>
    </message>
</context>
<context>
    <name>SearchBar</name>
    <message>
        <location filename="../../philont_desktop/timeline/widgets/search_bar.py" line="+63"/>
        <source>Search messages (Enter: next hit)</source>
        <translation>搜索消息（回车：下一个结果）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Searches as the agent does: full-text for 3 characters or more, else the messages that contain the text. Enter: next hit; Shift+Enter: previous; Escape: clear.</source>
        <translation>与智能体的搜索方式相同：3 个字符及以上用全文搜索，否则查找包含该文本的消息。回车：下一个结果；Shift+回车：上一个；Esc：清除。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>All roles</source>
        <translation>全部角色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Dates</source>
        <translation>日期</translation>
    </message>
</context>
<context>
    <name>SearchResultsModel</name>
    <message>
        <location filename="../../philont_desktop/timeline/search.py" line="-138"/>
        <source>Hit</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+78"/>
        <location line="+1"/>
        <source>Searching the timeline</source>
        <translation>正在搜索时间线</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Counting hits</source>
        <translation>正在统计结果数</translation>
    </message>
</context>
<context>
    <name>SkillBoardModel</name>
    <message>
        <location filename="../../philont_desktop/skills/model.py" line="+112"/>
        <source>Installed from disk</source>
        <translation>从磁盘安装</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Source: {0}</source>
        <translation>来源：{0}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Last used {0}</source>
        <translation>上次使用：{0}</translation>
    </message>
</context>
<context>
    <name>SkillMenu</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/menu.py" line="+27"/>
        <source>Edit recipe…</source>
        <translation>编辑流程…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit details…</source>
        <translation>编辑详情…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set grade</source>
        <translation>设置等级</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Mark as positive</source>
        <translation>标记为正面</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mark as avoid</source>
        <translation>标记为避免</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Turn on editing mode to change skills</source>
        <translation>开启编辑模式后才能修改技能</translation>
    </message>
</context>
<context>
    <name>SkillRepairs</name>
    <message>
        <location filename="../../philont_desktop/skills/repairs.py" line="+21"/>
        <source>repair attempts {0} of {1}</source>
        <translation>修复尝试 {0} / {1} 次</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>: the agent proposes no further repair</source>
        <translation>：智能体不再提出修复</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>repair {0}/{1}</source>
        <translation>修复 {0}/{1}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>repair attempt {0} of {1}</source>
        <translation>第 {0} 次修复尝试（共 {1} 次）</translation>
    </message>
</context>
<context>
    <name>SkillWords</name>
    <message>
        <location filename="../../philont_desktop/skills/words.py" line="+11"/>
        <source>Playbook</source>
        <translation>手册</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Confirmed</source>
        <translation>已确认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stable</source>
        <translation>稳定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deprecated</source>
        <translation>已弃用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A lesson shown as a hint; use_skill does not run it.</source>
        <translation>作为提示展示的经验；use_skill 不会执行它。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not yet validated: returned with a caveat, verify before use.</source>
        <translation>尚未验证：返回时附带提醒，使用前请核实。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>At least 2 successes without a failure.</source>
        <translation>至少成功 2 次且没有失败。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>At least 5 successes with failures under 10% of them.</source>
        <translation>至少成功 5 次，且失败次数低于成功次数的 10%。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verified unreliable: kept as a counter-example, no longer callable.</source>
        <translation>已证实不可靠：作为反例保留，不再可调用。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>a lesson, not run by use_skill</source>
        <translation>经验教训，use_skill 不执行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>verify before use</source>
        <translation>使用前请核实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unreliable: a counter-example</source>
        <translation>不可靠：作为反例</translation>
    </message>
</context>
<context>
    <name>SkillsController</name>
    <message>
        <location filename="../../philont_desktop/skills/controller.py" line="+54"/>
        <source>Loading skills</source>
        <extracomment>How a grade is named in the texts of edits (the view sets its translated names). The board&apos;s fixed time (tests, screenshots); ``None``: the clock.</extracomment>
        <translation>正在加载技能</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Loading skill {0}</source>
        <translation>正在加载技能 {0}</translation>
    </message>
    <message>
        <location line="+33"/>
        <location line="+5"/>
        <source>The change was not made</source>
        <translation>未能进行此变更</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Revise recipe {0}</source>
        <translation>修订流程 {0}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Restore version {0} of {1}</source>
        <translation>恢复 {1} 的版本 {0}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Edit skill {0}</source>
        <translation>编辑技能 {0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set {0} to {1}</source>
        <translation>将 {0} 设为{1}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Mark {0} as avoid</source>
        <translation>将 {0} 标记为避免</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mark {0} as positive</source>
        <translation>将 {0} 标记为正面</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Delete skill {0}</source>
        <translation>删除技能 {0}</translation>
    </message>
</context>
<context>
    <name>SkillsFilterBar</name>
    <message>
        <location filename="../../philont_desktop/skills/widgets/filter_bar.py" line="+25"/>
        <source>Filter by name, description, keywords, source…</source>
        <extracomment>The bar&apos;s width at 100 % under which its fields go onto three lines, two by two.</extracomment>
        <translation>按名称、描述、关键词、来源筛选…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>All kinds</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Positive</source>
        <translation>正面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Avoid (negative)</source>
        <translation>避免（负面）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All sources</source>
        <translation>全部来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learned (self:…)</source>
        <translation>自学（self:…）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Imported</source>
        <translation>导入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No source</source>
        <translation>无来源</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recipes only</source>
        <translation>仅流程</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sort: name</source>
        <translation>排序：名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: most used</source>
        <translation>排序：最常用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: recently used</source>
        <translation>排序：最近使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: most successes</source>
        <translation>排序：成功最多</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: most failures</source>
        <translation>排序：失败最多</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: ranking score</source>
        <translation>排序：排名得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sort: newest</source>
        <translation>排序：最新</translation>
    </message>
    <message numerus="yes">
        <location line="+76"/>
        <source>%n skill(s)</source>
        <translation>
            <numerusform>%n 个技能</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>{0} of %n skill(s)</source>
        <translation>
            <numerusform>{0} / %n 个技能</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SkillsTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-16"/>
        <source>Skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/skills/view.py" line="+101"/>
        <source>The skills could not be read: {0}</source>
        <translation>无法读取技能：{0}</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>Restore an earlier version</source>
        <translation>恢复较早的版本</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore version {0} of {1} as a new version? The current version is kept in the revision history and the grade goes back to draft.

Reason (optional):</source>
        <translation>将 {1} 的版本 {0} 恢复为一个新版本吗？当前版本会保留在修订历史中，等级退回草稿。

原因（可选）：</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Delete skill</source>
        <translation>删除技能</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete {0} ({1}, {2} uses, {3} successes, {4} failures)? The agent will no longer find it. Undo restores it with every field as it was.</source>
        <translation>删除 {0}（{1}，使用 {2} 次，成功 {3} 次，失败 {4} 次）吗？智能体将再也找不到它。撤销会按原样恢复所有字段。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>StartPage</name>
    <message>
        <location filename="../../philont_desktop/shell/start_page.py" line="+143"/>
        <source>Inspect and curate the memory of a Philont agent — also while it runs.</source>
        <translation>查看和整理 Philont 智能体的记忆——运行时也可以。</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create demo database…</source>
        <translation>创建演示数据库…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create empty database…</source>
        <translation>创建空数据库…</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Browse an existing memory database. Nothing in it changes until you turn on editing mode.</source>
        <translation>浏览现有的记忆数据库。在开启编辑模式之前，不会对它做任何改动。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A new memory database with the full schema, for the agent to fill.</source>
        <translation>一个具有完整架构的新记忆数据库，供智能体填充。</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>A generated memory of a few months of English and Chinese conversations, to try the app (default location: {0}).</source>
        <translation>生成一份包含几个月中英文对话的记忆，用来试用本程序（默认位置：{0}）。</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>This file does not exist any more.</source>
        <translation>此文件已不存在。</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>最近的文件</translation>
    </message>
    <message>
        <location line="-167"/>
        <source>Open the backup read-only</source>
        <translation>以只读方式打开这份备份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Restore this backup…</source>
        <translation>恢复这份备份…</translation>
    </message>
    <message>
        <location line="+139"/>
        <source>Replace the file with this backup; the file is kept, unchanged, in the backups folder.</source>
        <translation>用这份备份替换该文件；原文件会原样保存在备份文件夹中。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Look at {0} in a new window, changing nothing.</source>
        <translation>在新窗口中查看 {0}，不做任何更改。</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Not possible: the app was started read-only.</source>
        <translation>无法进行：程序以只读方式启动。</translation>
    </message>
</context>
<context>
    <name>StatusArea</name>
    <message>
        <location filename="../../philont_desktop/shell/status.py" line="+107"/>
        <source>schema {0}</source>
        <translation>架构 {0}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(newer)</source>
        <translation>（较新）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Schema version of the file; this version understands {0}. Journal: {1}.</source>
        <translation>文件的架构版本；本版本支持 {0}。日志模式：{1}。</translation>
    </message>
    <message>
        <source>EDITING</source>
        <translation>编辑中</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Changes are written to the database and audited.</source>
        <translation>更改会写入数据库并记入审计。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Turn on editing mode to make changes.</source>
        <translation>开启编辑模式后才能进行更改。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+2"/>
        <source>live</source>
        <translation>实时</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>changed</source>
        <translation>已变化</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not live</source>
        <translation>非实时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>live: error</source>
        <translation>实时：出错</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>checking…</source>
        <translation>检查中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The quick integrity check is running in the background.</source>
        <translation>快速完整性检查正在后台运行。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Quick integrity check (PRAGMA quick_check): ok</source>
        <translation>快速完整性检查（PRAGMA quick_check）：正常</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>integrity ok</source>
        <translation>完整性正常</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>messages</source>
        <translation>条消息</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>facts</source>
        <translation>事实</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>skills</source>
        <translation>技能</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Row counts (~: estimated from the highest row id, without counting the table).</source>
        <translation>行数（~：根据最大行 ID 估算，不逐行计数）。</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>not live: file replaced</source>
        <translation>非实时：文件已被替换</translation>
    </message>
</context>
<context>
    <name>TauDialog</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/tau_dialog.py" line="-61"/>
        <source>Decay of {0}</source>
        <translation>{0} 的衰减</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Namespace default ({0})</source>
        <translation>命名空间默认值（{0}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Custom tau (days)</source>
        <translation>自定义 τ（天）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pinned: never decays, never a forget candidate</source>
        <translation>固定：永不衰减，永远不会成为遗忘候选</translation>
    </message>
</context>
<context>
    <name>TimeControl</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/time_control.py" line="+18"/>
        <source>View at</source>
        <translation>查看时间</translation>
    </message>
    <message>
        <location line="+10"/>
        <source> d</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Now</source>
        <translation>现在</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>now</source>
        <translation>现在</translation>
    </message>
</context>
<context>
    <name>TimeTravelBanner</name>
    <message>
        <location filename="../../philont_desktop/context_tab/widgets/travel.py" line="+22"/>
        <source>Back to now</source>
        <translation>回到现在</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>What the agent saw before message #%1 (%2, session %3): only messages, facts and skills that existed then.</source>
        <translation>智能体在消息 #%1（%2，会话 %3）之前看到的内容：只包含当时已存在的消息、事实和技能。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the timeline is restricted to its scheduled session, as the agent does</source>
        <translation>时间线限定为其计划任务会话，与智能体的做法一致</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>its conversation is the home conversation</source>
        <translation>其所在对话即为所属对话</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set from the message: %1.</source>
        <translation>根据该消息设置：%1。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>TimelineController</name>
    <message>
        <location filename="../../philont_desktop/timeline/controller.py" line="+50"/>
        <source>All conversations</source>
        <extracomment>A hit became the shown one (its row), so the view can select it in the results.</extracomment>
        <translation>全部对话</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The timeline could not be read</source>
        <translation>无法读取时间线</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The conversations could not be listed</source>
        <translation>无法列出对话</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Counting messages per day</source>
        <translation>正在统计每天的消息数</translation>
    </message>
    <message>
        <location line="+124"/>
        <source>Finding the conversation</source>
        <translation>正在查找所属对话</translation>
    </message>
</context>
<context>
    <name>TimelineTab</name>
    <message>
        <location filename="../../philont_desktop/tabs/__init__.py" line="-16"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/timeline/widgets/results.py" line="+48"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../philont_desktop/timeline/view.py" line="+210"/>
        <source>All conversations</source>
        <translation>全部对话</translation>
    </message>
</context>
<context>
    <name>TimelineTexts</name>
    <message>
        <location filename="../../philont_desktop/timeline/texts.py" line="+26"/>
        <source>All conversations</source>
        <translation>全部对话</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>dates %1 – %2</source>
        <translation>日期 %1 – %2</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%Ln message(s)</source>
        <translation>
            <numerusform>%Ln 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>loading…</source>
        <translation>加载中…</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>all %Ln shown</source>
        <translation>
            <numerusform>已全部显示 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln shown, more load as you scroll</source>
        <translation>
            <numerusform>已显示 %Ln 条，滚动时加载更多</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Loading messages…</source>
        <translation>正在加载消息…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No messages between these dates. Clear the dates to see the others.</source>
        <translation>这些日期之间没有消息。清除日期即可查看其他消息。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No messages in this conversation.</source>
        <translation>此对话中没有消息。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No messages yet: the agent has not written any.</source>
        <translation>还没有消息：智能体尚未写入任何消息。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Listing conversations…</source>
        <translation>正在列出对话…</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln conversation(s), the most recent first</source>
        <translation>
            <numerusform>%Ln 个对话，最近的在前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%Ln hit(s)</source>
        <translation>
            <numerusform>%Ln 个结果</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1+ hits</source>
        <translation>%1+ 个结果</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+35"/>
        <source>Searching…</source>
        <translation>搜索中…</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>The search could not run</source>
        <translation>无法执行搜索</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to search for</source>
        <translation>没有可搜索的内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No hits</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Counting every hit…</source>
        <translation>正在统计全部结果…</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The search could not run: %1</source>
        <translation>无法执行搜索：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing to search for: quotes, stars and brackets alone are left out.</source>
        <translation>没有可搜索的内容：单独的引号、星号和括号会被忽略。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No message contains “%1”.</source>
        <translation>没有消息包含“%1”。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Only this conversation was searched: choose “All conversations” to search all.</source>
        <translation>只搜索了此对话：选择“全部对话”即可搜索全部。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Only the chosen dates were searched.</source>
        <translation>只搜索了所选日期。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Only messages of one role were searched.</source>
        <translation>只搜索了一种角色的消息。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Message #%1 · %2 · %3 · %4</source>
        <translation>消息 #%1 · %2 · %3 · %4</translation>
    </message>
</context>
<context>
    <name>TurnView</name>
    <message>
        <location filename="../../philont_desktop/health/recall/widgets/turn_view.py" line="+52"/>
        <source>Open in the Context tab</source>
        <translation>在“上下文”标签页中打开</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What the agent saw at that turn</source>
        <translation>智能体在该轮次所见</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The message it needed</source>
        <translation>它需要的消息</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Select a missed turn to see what the agent saw then.</source>
        <translation>选择一个未命中的轮次，查看智能体当时所见。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Computing what the agent saw…</source>
        <translation>正在计算智能体当时所见…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This message is no longer in the file.</source>
        <translation>这条消息已不在文件中。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Why recall missed: %1</source>
        <translation>召回为何未命中：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rare words it shares with earlier messages: %1</source>
        <translation>它与早先消息共有的罕见词：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Recall answered by: %1</source>
        <translation>召回的回答方式：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The user corrected the agent (&quot;%1&quot;).</source>
        <translation>用户纠正了智能体（“%1”）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>#%1 · %2 · %3</source>
        <translation>#%1 · %2 · %3</translation>
    </message>
</context>
<context>
    <name>UndoManager</name>
    <message>
        <location filename="../../philont_desktop/undo.py" line="+126"/>
        <source>The change was not made</source>
        <translation>未能进行此变更</translation>
    </message>
    <message>
        <location line="+26"/>
        <location line="+64"/>
        <source>Undo failed</source>
        <translation>撤销失败</translation>
    </message>
    <message>
        <location line="-64"/>
        <location line="+64"/>
        <source>Redo failed</source>
        <translation>重做失败</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Undone: {0}</source>
        <translation>已撤销：{0}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Redone: {0}</source>
        <translation>已重做：{0}</translation>
    </message>
</context>
<context>
    <name>UpcomingModel</name>
    <message>
        <location filename="../../philont_desktop/calendar/model.py" line="-239"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In</source>
        <translation>距现在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Title / task</source>
        <translation>标题 / 任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeats</source>
        <translation>重复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Zone / action</source>
        <translation>时区 / 操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>overdue</source>
        <translation>已逾期</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>payload broken</source>
        <translation>负载已损坏</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>UTC: {0}</source>
        <translation>UTC：{0}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In the event&apos;s zone: {0}</source>
        <translation>事件所在时区：{0}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The task&apos;s next run is in the past: the agent has not run it yet.</source>
        <translation>该任务的下次运行时间已过：智能体尚未运行它。</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>paused until {0}</source>
        <translation>暂停至 {0}</translation>
    </message>
</context>
<context>
    <name>WhatIfBox</name>
    <message>
        <location filename="../../philont_desktop/facts/widgets/what_if.py" line="+36"/>
        <source>What if</source>
        <translation>假设分析</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Select one fact.</source>
        <translation>请选择一条事实。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>namespace default</source>
        <translation>命名空间默认值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> d</source>
        <translation> 天</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tau</source>
        <translation>τ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Select one fact to try another tau or confidence.</source>
        <translation>选择一条事实，尝试其他 τ 或置信度。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>default ({0})</source>
        <translation>默认（{0}）</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Now: {0}</source>
        <translation>当前：{0}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Now: {0}
What if: {1}</source>
        <translation>当前：{0}
假设：{1}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>pinned, never decays</source>
        <translation>已固定，永不衰减</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>never decays</source>
        <translation>永不衰减</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>below the threshold (confidence)</source>
        <translation>低于阈值（置信度）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>stays above the threshold</source>
        <translation>始终高于阈值</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>below the threshold since {0}</source>
        <translation>自 {0} 起低于阈值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>falls below the threshold on {0} ({1})</source>
        <translation>将于 {0} 跌破阈值（{1}）</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <location filename="../../philont_desktop/shell/menus.py" line="+29"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About {0}</source>
        <translation>关于 {0}(&amp;A)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&amp;Open (read-only)…</source>
        <translation>打开（只读）(&amp;O)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open for &amp;editing…</source>
        <translation>打开以编辑(&amp;E)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Recent files</source>
        <translation>最近的文件(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Backup now</source>
        <translation>立即备份(&amp;B)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Close database</source>
        <translation>关闭数据库(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+118"/>
        <location line="+8"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="-125"/>
        <location line="+117"/>
        <location line="+9"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="-118"/>
        <source>&amp;Editing mode</source>
        <translation>编辑模式(&amp;E)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;High contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Audit log</source>
        <translation>审计记录(&amp;A)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Actual &amp;Size</source>
        <translation>实际大小(&amp;S)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Text size: {0} %</source>
        <translation>文字大小：{0} %</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Editing mode</source>
        <translation>编辑模式</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Editing mode is off: it is turned on first</source>
        <translation>编辑模式已关闭：会先打开编辑模式</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>“{0}” cannot be changed now: {1}.</source>
        <translation>现在无法更改“{0}”：{1}。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Undo needs editing mode: turn it on (Edit › Editing mode) to undo “{0}”.</source>
        <translation>撤销需要编辑模式：请打开它（编辑 › 编辑模式）再撤销“{0}”。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Redo needs editing mode: turn it on (Edit › Editing mode) to redo “{0}”.</source>
        <translation>重做需要编辑模式：请打开它（编辑 › 编辑模式）再重做“{0}”。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Undoing “{0}” changes the database. Turn editing mode on (a backup is taken first) and undo it?</source>
        <translation>撤销“{0}”会更改数据库。要打开编辑模式（先做一次备份）并撤销吗？</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Redoing “{0}” changes the database. Turn editing mode on (a backup is taken first) and redo it?</source>
        <translation>重做“{0}”会更改数据库。要打开编辑模式（先做一次备份）并重做吗？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Turn editing mode on?</source>
        <translation>打开编辑模式？</translation>
    </message>
</context>
</TS>
