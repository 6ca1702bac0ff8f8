ffffffff811dff77 <__count_memcg_events>:
ffffffff811dff77:	push   %r12
ffffffff811dff79:	mov    %esi,%eax
ffffffff811dff7b:	mov    %rdx,%r12
ffffffff811dff7e:	push   %rbp
ffffffff811dff7f:	movzbl -0x7e08c6a0(%rax),%edx
ffffffff811dff86:	mov    %rax,%rbp
ffffffff811dff89:	push   %rbx
ffffffff811dff8a:	call   ffffffff811ddac8 <mem_cgroup_disabled>
ffffffff811dff8f:	test   %al,%al
ffffffff811dff91:	jne    ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811dff97:	cmp    $0xff,%dl
ffffffff811dff9a:	jne    ffffffff811dffc5 <__count_memcg_events+0x4e>
ffffffff811dff9c:	cmpb   $0x0,0xd77fbd(%rip)        # ffffffff81f57f60 <__already_done.23>
ffffffff811dffa3:	jne    ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811dffa5:	mov    %ebp,%edx
ffffffff811dffa7:	mov    $0xffffffff81830950,%rsi
ffffffff811dffae:	mov    $0xffffffff81a130d8,%rdi
ffffffff811dffb5:	movb   $0x1,0xd77fa4(%rip)        # ffffffff81f57f60 <__already_done.23>
ffffffff811dffbc:	call   ffffffff81049b47 <__warn_printk>
ffffffff811dffc1:	ud2
ffffffff811dffc3:	jmp    ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811dffc5:	mov    %r12d,%esi
ffffffff811dffc8:	mov    0x538(%rdi),%rax
ffffffff811dffcf:	mov    %rdi,%rbx
ffffffff811dffd2:	add    %r12,%gs:0x148(%rax,%rdx,8)
ffffffff811dffdb:	call   ffffffff811de551 <memcg_rstat_updated>
ffffffff811dffe0:	mov    0xd80002(%rip),%eax        # ffffffff81f5ffe8 <__tracepoint_count_memcg_events+0x8>
ffffffff811dffe6:	test   %eax,%eax
ffffffff811dffe8:	jle    ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811dffea:	mov    %gs:0x7ee4c29b(%rip),%eax        # 2c28c <pcpu_hot+0xc>
ffffffff811dfff1:	bt     %rax,0xd90f0f(%rip)        # ffffffff81f70f08 <__cpu_online_mask>
ffffffff811dfff9:	jae    ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811dfffb:	mov    0xd8001e(%rip),%rax        # ffffffff81f60020 <__tracepoint_count_memcg_events+0x40>
ffffffff811e0002:	test   %rax,%rax
ffffffff811e0005:	je     ffffffff811e0018 <__count_memcg_events+0xa1>
ffffffff811e0007:	mov    0x8(%rax),%rdi
ffffffff811e000b:	mov    %r12,%rcx
ffffffff811e000e:	mov    %ebp,%edx
ffffffff811e0010:	mov    %rbx,%rsi
ffffffff811e0013:	call   ffffffff814fd0c8 <__SCT__tp_func_count_memcg_events>
ffffffff811e0018:	pop    %rbx
ffffffff811e0019:	pop    %rbp
ffffffff811e001a:	pop    %r12
ffffffff811e001c:	ret

