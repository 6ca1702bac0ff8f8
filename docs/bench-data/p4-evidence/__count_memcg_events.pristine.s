ffffffff811df61d <__count_memcg_events>:
ffffffff811df61d:	mov    %esi,%eax
ffffffff811df61f:	movzbl -0x7e08d420(%rax),%ecx
ffffffff811df626:	call   ffffffff811dd3e9 <mem_cgroup_disabled>
ffffffff811df62b:	test   %al,%al
ffffffff811df62d:	jne    ffffffff811df673 <__count_memcg_events+0x56>
ffffffff811df62f:	cmp    $0xff,%cl
ffffffff811df632:	jne    ffffffff811df65c <__count_memcg_events+0x3f>
ffffffff811df634:	cmpb   $0x0,0xd77d25(%rip)        # ffffffff81f57360 <__already_done.23>
ffffffff811df63b:	jne    ffffffff811df673 <__count_memcg_events+0x56>
ffffffff811df63d:	mov    %esi,%edx
ffffffff811df63f:	mov    $0xffffffff81a1306d,%rdi
ffffffff811df646:	mov    $0xffffffff81830950,%rsi
ffffffff811df64d:	movb   $0x1,0xd77d0c(%rip)        # ffffffff81f57360 <__already_done.23>
ffffffff811df654:	call   ffffffff81049b47 <__warn_printk>
ffffffff811df659:	ud2
ffffffff811df65b:	ret
ffffffff811df65c:	mov    0x538(%rdi),%rax
ffffffff811df663:	mov    %edx,%esi
ffffffff811df665:	add    %rdx,%gs:0x148(%rax,%rcx,8)
ffffffff811df66e:	jmp    ffffffff811ddcc4 <memcg_rstat_updated>
ffffffff811df673:	ret

