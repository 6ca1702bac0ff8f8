ffffffff811defc7 <__mod_memcg_state>:
ffffffff811defc7:	movslq %esi,%rax
ffffffff811defca:	mov    %rdi,%rcx
ffffffff811defcd:	mov    %edx,%esi
ffffffff811defcf:	mov    %rax,%rdi
ffffffff811defd2:	movzbl -0x7e08d3a0(%rax),%edx
ffffffff811defd9:	call   ffffffff811dd3e9 <mem_cgroup_disabled>
ffffffff811defde:	test   %al,%al
ffffffff811defe0:	jne    ffffffff811df04a <__mod_memcg_state+0x83>
ffffffff811defe2:	cmp    $0xff,%dl
ffffffff811defe5:	jne    ffffffff811df00f <__mod_memcg_state+0x48>
ffffffff811defe7:	cmpb   $0x0,0xd78375(%rip)        # ffffffff81f57363 <__already_done.26>
ffffffff811defee:	jne    ffffffff811df04a <__mod_memcg_state+0x83>
ffffffff811deff0:	mov    %edi,%edx
ffffffff811deff2:	mov    $0xffffffff818309b0,%rsi
ffffffff811deff9:	mov    $0xffffffff81a1306d,%rdi
ffffffff811df000:	movb   $0x1,0xd7835c(%rip)        # ffffffff81f57363 <__already_done.26>
ffffffff811df007:	call   ffffffff81049b47 <__warn_printk>
ffffffff811df00c:	ud2
ffffffff811df00e:	ret
ffffffff811df00f:	mov    0x538(%rcx),%rax
ffffffff811df016:	movslq %esi,%r8
ffffffff811df019:	add    %r8,%gs:0x18(%rax,%rdx,8)
ffffffff811df01f:	call   ffffffff811dd370 <memcg_page_state_unit>
ffffffff811df024:	test   %esi,%esi
ffffffff811df026:	je     ffffffff811df042 <__mod_memcg_state+0x7b>
ffffffff811df028:	cmp    $0x1000,%eax
ffffffff811df02d:	je     ffffffff811df042 <__mod_memcg_state+0x7b>
ffffffff811df02f:	imul   %eax,%esi
ffffffff811df032:	mov    $0x1,%eax
ffffffff811df037:	movslq %esi,%rsi
ffffffff811df03a:	shr    $0xc,%rsi
ffffffff811df03e:	cmove  %rax,%rsi
ffffffff811df042:	mov    %rcx,%rdi
ffffffff811df045:	jmp    ffffffff811ddcc4 <memcg_rstat_updated>
ffffffff811df04a:	ret

